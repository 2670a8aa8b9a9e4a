// initialNode and the reconciliation of an existing Node (kubelet_node_status.go): the Node the
// agent registers (its default labels, --node-labels over them, --register-with-taints, the
// external cloud provider's taint, --provider-id, the attach-detach annotation, and the status
// the setters compute) and what it fixes on a Node that already exists.
import type { Taint } from '../../core/nodeagent/configuration.js';
import {
  LABEL_ARCH, LABEL_ARCH_BETA, LABEL_FAILURE_DOMAIN_BETA_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_HOSTNAME, LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA, LABEL_OS, LABEL_OS_BETA, LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE, LABEL_WINDOWS_BUILD,
} from '../../core/nodes/node-labels.js';
import { ANNOTATION_CONTROLLER_MANAGED_ATTACH, TAINT_EXTERNAL_CLOUD_PROVIDER, type Node, type NodeTaint } from '../../core/nodes/node-object.js';
import { goArch, goOs } from './machine.js';
import { setNodeStatus, type StatusInputs } from './node-status.js';

export interface NodeInputs extends StatusInputs {
  readonly nodeName: string;
  /** --node-labels (already validated). */
  readonly nodeLabels: Readonly<Record<string, string>>;
}

/** updateDefaultLabels' list: labels the agent owns on an existing Node. */
const DEFAULT_LABELS = [
  LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_INSTANCE_TYPE, LABEL_INSTANCE_TYPE_BETA, LABEL_OS, LABEL_ARCH, LABEL_WINDOWS_BUILD, LABEL_OS_BETA, LABEL_ARCH_BETA,
];

const toNodeTaint = (t: Taint): NodeTaint => ({
  key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect, ...(t.timeAdded ? { timeAdded: t.timeAdded } : {}),
});

export async function initialNode(inputs: NodeInputs): Promise<Node> {
  const os = goOs(process.platform);
  const arch = goArch(process.arch);
  const labels: Record<string, string> = {
    [LABEL_HOSTNAME]: inputs.hostname, [LABEL_OS]: os, [LABEL_ARCH]: arch, [LABEL_OS_BETA]: os, [LABEL_ARCH_BETA]: arch,
  };
  for (const [k, v] of Object.entries(inputs.nodeLabels)) {
    if (Object.hasOwn(labels, k)) inputs.logger.warn(`the node label ${k}=${v} will overwrite default setting ${labels[k]}`);
    labels[k] = v;
  }
  const taints = (inputs.config.registerWithTaints ?? []).map(toNodeTaint);
  if (inputs.externalCloudProvider) taints.push({ key: TAINT_EXTERNAL_CLOUD_PROVIDER, value: 'true', effect: 'NoSchedule' });
  const node: Node = {
    apiVersion: 'v1', kind: 'Node',
    metadata: {
      name: inputs.nodeName, labels,
      ...(inputs.config.enableControllerAttachDetach ? { annotations: { [ANNOTATION_CONTROLLER_MANAGED_ATTACH]: 'true' } } : {}),
    },
    spec: {
      ...(taints.length ? { taints } : {}),
      ...(inputs.config.providerID ? { providerID: inputs.config.providerID } : {}),
    },
    status: {},
  };
  await setNodeStatus(node, inputs);
  return node;
}

/** updateDefaultLabels: the default labels of the new Node onto the existing one; true when something changed. */
export function updateDefaultLabels(initial: Node, existing: Node): boolean {
  let changed = false;
  const labels = (existing.metadata.labels ??= {});
  for (const key of DEFAULT_LABELS) {
    const want = initial.metadata.labels?.[key];
    if (want === undefined) continue;
    if ((labels[key] ?? '') !== want) { labels[key] = want; changed = true; }
    if (labels[key] === '') delete labels[key];
  }
  return changed;
}

/** reconcileCMADAnnotationWithExistingNode: the attach-detach annotation follows the configuration. */
export function reconcileAttachDetachAnnotation(initial: Node, existing: Node): boolean {
  const want = initial.metadata.annotations?.[ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  const have = existing.metadata.annotations?.[ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  if ((want ?? '') === (have ?? '')) return false;
  if (want === undefined) delete existing.metadata.annotations![ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  else existing.metadata.annotations = { ...existing.metadata.annotations, [ANNOTATION_CONTROLLER_MANAGED_ATTACH]: want };
  return true;
}
