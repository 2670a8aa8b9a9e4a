// JSON schema of core/v1 Node (ajv type checks, unknown fields, OpenAPI for kubectl explain), with
// k8s.io/api/core/v1's descriptions and the list strategies strategic merge patch needs:
// conditions and addresses merge by `type`, podCIDRs merge as a set, taints are replaced whole.
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { QUANTITY_GO_TYPE } from '../../core/api/quantity.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const str = (description: string): JsonSchema => ({ type: 'string', description });
/** A string of a named Go type (`v1.TaintEffect`). */
const named = (goType: string, description: string): JsonSchema => ({ type: 'string', 'x-go-type': goType, description });
const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
/** resource.Quantity serializes as a string in its canonical form (it decodes from a number too). */
const quantities = (description: string): JsonSchema => ({
  type: 'object', 'x-go-type': 'v1.ResourceList', additionalProperties: { type: 'string', 'x-go-type': QUANTITY_GO_TYPE }, description,
});

const taintSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Taint',
  description: 'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
  properties: {
    key: str('Required. The taint key to be applied to a node.'),
    value: str('The taint value corresponding to the taint key.'),
    effect: named('v1.TaintEffect', 'Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.'),
    timeAdded: time('TimeAdded represents the time at which the taint was added.'),
  },
};

const configSourceSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NodeConfigSource',
  description: 'Deprecated: Previously used to specify the source of the node\'s configuration for the DynamicKubeletConfig feature. This feature is removed.',
  properties: {
    configMap: {
      type: 'object',
      'x-go-type': 'v1.ConfigMapNodeConfigSource',
      description: 'ConfigMap is a reference to a Node\'s ConfigMap',
      properties: {
        namespace: str('Namespace is the metadata.namespace of the referenced ConfigMap.'),
        name: str('Name is the metadata.name of the referenced ConfigMap.'),
        uid: named('types.UID', 'UID is the metadata.UID of the referenced ConfigMap.'),
        resourceVersion: str('ResourceVersion is the metadata.ResourceVersion of the referenced ConfigMap.'),
        kubeletConfigKey: str('KubeletConfigKey declares which key of the referenced ConfigMap corresponds to the KubeletConfiguration structure'),
      },
    },
  },
};

/** v1.NodeConfigStatus: still in the 1.32 API, though the feature that filled it is removed. */
const configStatusSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NodeConfigStatus',
  description: 'Status of the config assigned to the node via the dynamic Kubelet config feature.',
  properties: {
    assigned: { ...configSourceSchema, description: 'Assigned reports the checkpointed config the node will try to use. When Node.Spec.ConfigSource is updated, the node checkpoints the associated config payload to local disk, along with a record indicating intended config. The node refers to this record to choose its config checkpoint, and reports this record in Assigned. Assigned only updates in the status after the record has been checkpointed to disk. When the Kubelet is restarted, it tries to make the Assigned config the Active config by loading and validating the checkpointed payload identified by Assigned.' },
    active: { ...configSourceSchema, description: 'Active reports the checkpointed config the node is actively using. Active will represent either the current version of the Assigned config, or the current LastKnownGood config, depending on whether attempting to use the Assigned config results in an error.' },
    lastKnownGood: { ...configSourceSchema, description: 'LastKnownGood reports the checkpointed config the node will fall back to when it encounters an error attempting to use the Assigned config. The Assigned config becomes the LastKnownGood config when the node determines that the Assigned config is stable and correct. This is currently implemented as a 10-minute soak period starting when the local record of Assigned config is updated. If the Assigned config is Active at the end of this period, it becomes the LastKnownGood. Note that if Spec.ConfigSource is reset to nil (use local defaults), the LastKnownGood is also immediately reset to nil, because the local default config is always assumed good. You should not make assumptions about the node\'s method of determining config stability and correctness, as this may change or become configurable in the future.' },
    error: str('Error describes any problems reconciling the Spec.ConfigSource to the Active config. Errors may occur, for example, attempting to checkpoint Spec.ConfigSource to the local Assigned record, attempting to checkpoint the payload associated with Spec.ConfigSource, attempting to load or validate the Assigned config, etc. Errors may occur at different points while syncing config. Earlier errors (e.g. download or checkpointing errors) will not result in a rollback to LastKnownGood, and may resolve across Kubelet retries. Later errors (e.g. loading or validating a checkpointed config) will result in a rollback to LastKnownGood. In the latter case, it is usually possible to resolve the error by fixing the config assigned in Spec.ConfigSource. You can find additional information for debugging by searching the error message in the Kubelet log. Error is a human-readable description of the error state; machines can check whether or not Error is empty, but should not rely on the stability of the Error text across Kubelet versions.'),
  },
};

const conditionSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NodeCondition',
  description: 'NodeCondition contains condition information for a node.',
  properties: {
    type: named('v1.NodeConditionType', 'Type of node condition.'),
    status: named('v1.ConditionStatus', 'Status of the condition, one of True, False, Unknown.'),
    lastHeartbeatTime: time('Last time we got an update on a given condition.'),
    lastTransitionTime: time('Last time the condition transit from one status to another.'),
    reason: str('(brief) reason for the condition\'s last transition.'),
    message: str('Human readable message indicating details about last transition.'),
  },
};

const addressSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NodeAddress',
  description: 'NodeAddress contains information for the node\'s address.',
  properties: {
    type: named('v1.NodeAddressType', 'Node address type, one of Hostname, ExternalIP or InternalIP.'),
    address: str('The node address.'),
  },
};

const nodeInfoSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NodeSystemInfo',
  description: 'NodeSystemInfo is a set of ids/uuids to uniquely identify the node.',
  properties: {
    machineID: str('MachineID reported by the node.'),
    systemUUID: str('SystemUUID reported by the node.'),
    bootID: str('Boot ID reported by the node.'),
    kernelVersion: str('Kernel Version reported by the node from \'uname -r\'.'),
    osImage: str('OS Image reported by the node from /etc/os-release.'),
    containerRuntimeVersion: str('ContainerRuntime Version reported by the node through runtime remote API.'),
    kubeletVersion: str('Kubelet Version reported by the node.'),
    kubeProxyVersion: str('Deprecated: KubeProxy Version reported by the node.'),
    operatingSystem: str('The Operating System reported by the node'),
    architecture: str('The Architecture reported by the node'),
    swap: { type: 'object', 'x-go-type': 'v1.NodeSwapStatus', description: 'Swap Info reported by the node.', properties: { capacity: { type: 'integer', format: 'int64', description: 'Total amount of swap memory in bytes.' } } },
  },
};

export const NODE_DESCRIPTION = 'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).';

export const nodeSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Node',
  description: NODE_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object',
      'x-go-type': 'v1.NodeSpec',
      description: 'Spec defines the behavior of a node.',
      properties: {
        podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
        podCIDRs: {
          type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge',
          description: 'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node. If this field is specified, the 0th entry must match the podCIDR field. It may contain at most 1 value for each of IPv4 and IPv6.',
        },
        providerID: str('ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>'),
        unschedulable: { type: 'boolean', description: 'Unschedulable controls node schedulability of new pods. By default, node is schedulable.' },
        taints: { type: 'array', items: taintSchema, 'x-kubernetes-list-type': 'atomic', description: 'If specified, the node\'s taints.' },
        configSource: configSourceSchema,
        externalID: str('Deprecated. Not all kubelets will set this field. Remove field after 1.13.'),
      },
    },
    status: {
      type: 'object',
      'x-go-type': 'v1.NodeStatus',
      description: 'Most recently observed status of the node.',
      properties: {
        capacity: quantities('Capacity represents the total resources of a node.'),
        allocatable: quantities('Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.'),
        phase: named('v1.NodePhase', 'NodePhase is the recently observed lifecycle phase of the node. The field is never populated, and now is deprecated.'),
        conditions: {
          type: 'array', items: conditionSchema, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'type',
          description: 'Conditions is an array of current observed node conditions.',
        },
        addresses: {
          // Two InternalIPs on a dual-stack node share the merge key, so this is not a listType=map.
          type: 'array', items: addressSchema, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'type',
          description: 'List of addresses reachable to the node.',
        },
        daemonEndpoints: {
          type: 'object',
          'x-go-type': 'v1.NodeDaemonEndpoints',
          description: 'Endpoints of daemons running on the Node.',
          properties: {
            kubeletEndpoint: {
              type: 'object', 'x-go-type': 'v1.DaemonEndpoint', description: 'Endpoint on which Kubelet is listening.',
              properties: { Port: { type: 'integer', format: 'int32', description: 'Port number of the given endpoint.' } },
            },
          },
        },
        nodeInfo: nodeInfoSchema,
        images: {
          type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'List of container images on this node',
          items: {
            type: 'object', 'x-go-type': 'v1.ContainerImage', description: 'Describe a container image',
            properties: {
              names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic', description: 'Names by which this image is known.' },
              sizeBytes: { type: 'integer', format: 'int64', description: 'The size of the image in bytes.' },
            },
          },
        },
        volumesInUse: { type: 'array', items: { type: 'string', 'x-go-type': 'v1.UniqueVolumeName' }, 'x-kubernetes-list-type': 'atomic', description: 'List of attachable volumes in use (mounted) by the node.' },
        volumesAttached: {
          type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'List of volumes that are attached to the node.',
          items: { type: 'object', 'x-go-type': 'v1.AttachedVolume', description: 'AttachedVolume describes a volume attached to a node', properties: { name: named('v1.UniqueVolumeName', 'Name of the attached volume'), devicePath: str('DevicePath represents the device path where the volume should be available') } },
        },
        config: configStatusSchema,
        runtimeHandlers: {
          type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'The available runtime handlers.',
          items: {
            type: 'object', 'x-go-type': 'v1.NodeRuntimeHandler', description: 'NodeRuntimeHandler is a set of runtime handler information.',
            properties: {
              name: str('Runtime handler name. Empty for the default runtime handler.'),
              features: {
                type: 'object', 'x-go-type': 'v1.NodeRuntimeHandlerFeatures', description: 'Supported features.',
                properties: {
                  recursiveReadOnlyMounts: { type: 'boolean', description: 'RecursiveReadOnlyMounts is set to true if the runtime handler supports RecursiveReadOnlyMounts.' },
                  userNamespaces: { type: 'boolean', description: 'UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.' },
                },
              },
            },
          },
        },
        features: {
          type: 'object', 'x-go-type': 'v1.NodeFeatures', description: 'Features describes the set of features implemented by the CRI implementation.',
          properties: {
            supplementalGroupsPolicy: { type: 'boolean', description: 'SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.' },
          },
        },
      },
    },
  },
};
