// core/v1 Pods, read-only and always empty. plat's node agents run no containers, so there are no
// Pods to store; but clients built for nodes ask for a node's pods (`kubectl describe node` lists
// `/api/v1/pods?fieldSelector=spec.nodeName=<node>,...` and gives up on anything but a list or a
// 403). Serving the collection with get, list and watch and without any write verb lets them read
// the truth, "none", with upstream's field selectors (PodToSelectableFields).
import type { ApiObject } from '../../core/api/meta.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema, ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';

const DESCRIPTION = 'Pod is a collection of containers that can run on a host. plat runs no containers: this collection is read-only and empty.';

const schema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Pod',
  description: DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    spec: { type: 'object', 'x-go-type': 'v1.PodSpec', 'x-kubernetes-preserve-unknown-fields': true, description: 'Specification of the desired behavior of the pod.' },
    status: { type: 'object', 'x-go-type': 'v1.PodStatus', 'x-kubernetes-preserve-unknown-fields': true, description: 'Most recently observed status of the pod.' },
  },
};

/** Never called: the resource serves no write verb. */
const readOnly: Strategy = { validate: () => [], validateUpdate: () => [] };

interface PodFields extends ApiObject {
  spec?: { nodeName?: string; restartPolicy?: string; schedulerName?: string; serviceAccountName?: string; hostNetwork?: boolean };
  status?: { phase?: string; podIP?: string; nominatedNodeName?: string };
}

export const podsViewResource: ResourceDefinition<PodFields> = {
  group: '', version: 'v1', kind: 'Pod', listKind: 'PodList', plural: 'pods', singular: 'pod', shortNames: ['po'], categories: ['all'],
  scope: 'Namespaced', schema, description: DESCRIPTION, strategy: readOnly,
  verbs: ['get', 'list', 'watch'],
  selectableFields: (pod) => ({
    'spec.nodeName': pod.spec?.nodeName ?? '',
    'spec.restartPolicy': pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(pod.spec?.hostNetwork === true),
    'status.phase': pod.status?.phase ?? '',
    'status.podIP': pod.status?.podIP ?? '',
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  }),
};
