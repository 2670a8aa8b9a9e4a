// The core/v1 Node as it travels on the wire and sits in storage, shared by the plugin that serves
// it, the admission and authorization plugins that guard it and the node agent that writes it.
// Field names are upstream's core/v1 names, `kubeletVersion` and `kubeletEndpoint` included: the
// Node is a core/v1 object kubectl decodes with its typed client (`kubectl describe node`), so
// its JSON keeps the Kubernetes shape; the renames apply to the values (label keys, reasons).
import type { ApiObject } from '../api/meta.js';
import type { ResourceRef } from '../client/rest-client.js';

export const NODE_RESOURCE: ResourceRef = { group: '', version: 'v1', plural: 'nodes' };
export const LEASE_RESOURCE: ResourceRef = { group: 'coordination.platform', version: 'v1', plural: 'leases' };
/** spec 03: node heartbeats are Leases in this namespace, named after the node (upstream kube-node-lease). */
export const NODE_LEASE_NAMESPACE = 'plat-node-lease';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export interface NodeTaint { key: string; value?: string; effect: string; timeAdded?: string | null }

export type NodeAddressType = 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';
export interface NodeAddressEntry { type: NodeAddressType | (string & {}); address: string }

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | (string & {});
  /** RFC 3339; `null` is how a zero metav1.Time serializes. */
  lastHeartbeatTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
  swap?: { capacity?: number };
}

export interface NodeConfigSource {
  configMap?: { namespace?: string; name?: string; uid?: string; resourceVersion?: string; kubeletConfigKey?: string };
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: NodeTaint[];
  configSource?: NodeConfigSource | null;
  externalID?: string;
}

export interface NodeStatus {
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddressEntry[];
  daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: number }[];
  volumesInUse?: string[];
  volumesAttached?: { name: string; devicePath: string }[];
  config?: unknown;
  runtimeHandlers?: unknown[];
  features?: unknown;
  declaredFeatures?: string[];
}

export interface Node extends ApiObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

/** Condition types and the reasons of upstream's node-status setters, renamed (Kubelet -> NodeAgent). */
export const NODE_READY = 'Ready';
export const NODE_MEMORY_PRESSURE = 'MemoryPressure';
export const NODE_DISK_PRESSURE = 'DiskPressure';
export const NODE_PID_PRESSURE = 'PIDPressure';
export const NODE_NETWORK_UNAVAILABLE = 'NetworkUnavailable';

/** The taint every unschedulable node carries (upstream node.kubernetes.io/unschedulable). */
export const TAINT_NODE_UNSCHEDULABLE = 'node.platform/unschedulable';
/** The node lifecycle controller's taints (upstream's node.kubernetes.io/ keys), from the node's conditions. */
export const TAINT_NODE_NOT_READY = 'node.platform/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.platform/unreachable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.platform/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.platform/disk-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.platform/network-unavailable';
export const TAINT_NODE_PID_PRESSURE = 'node.platform/pid-pressure';
/** A node with this label counts in no zone's disruption (upstream node.kubernetes.io/exclude-disruption). */
export const LABEL_NODE_EXCLUDE_DISRUPTION = 'node.platform/exclude-disruption';
/** Set by the agent when --cloud-provider=external until a cloud controller initialises the node. */
export const TAINT_EXTERNAL_CLOUD_PROVIDER = 'node.cloudprovider.platform/uninitialized';
/** Node annotations of upstream, renamed. */
export const ANNOTATION_CONTROLLER_MANAGED_ATTACH = 'volumes.platform/controller-managed-attach-detach';
export const ANNOTATION_PROVIDED_NODE_IP = 'alpha.platform/provided-node-ip';
export const ANNOTATION_TAINTS = 'scheduler.alpha.platform/taints';
export const ANNOTATION_PREFER_AVOID_PODS = 'scheduler.alpha.platform/preferAvoidPods';
