// initialNode and the reconciliation of an existing Node (kubelet_node_status.go): the Node the
// agent registers (its default labels, --node-labels over them, --register-with-taints, the
// external cloud provider's taint, --provider-id, the attach-detach annotation, and the status
// the setters compute) and what it fixes on a Node that already exists.
import type { Taint } from '../../core/nodeagent/configuration.js';
import {
  LABEL_ARCH, LABEL_ARCH_BETA, LABEL_FAILURE_DOMAIN_BETA_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_HOSTNAME, LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA, LABEL_OS, LABEL_OS_BETA, LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE, LABEL_WINDOWS_BUILD,
} from '../../core/nodes/node-labels.js';
import type { Logger } from '../../core/log.js';
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
    if (Object.hasOwn(labels, k)) inputs.logger.info('the node label will overwrite default setting', { labelKey: k, labelValue: v, default: labels[k] });
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
export function reconcileAttachDetachAnnotation(initial: Node, existing: Node, logger: Logger): boolean {
  const want = initial.metadata.annotations?.[ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  const have = existing.metadata.annotations?.[ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  if ((want ?? '') === (have ?? '')) return false;
  if (want === undefined) {
    logger.info('Controller attach-detach setting changed to false; updating existing Node');
    delete existing.metadata.annotations![ANNOTATION_CONTROLLER_MANAGED_ATTACH];
  } else {
    logger.info('Controller attach-detach setting changed to true; updating existing Node');
    existing.metadata.annotations = { ...existing.metadata.annotations, [ANNOTATION_CONTROLLER_MANAGED_ATTACH]: want };
  }
  return true;
}

/**
 * updateNode's areRequiredLabelsNotPresent: platform/os and platform/arch as this machine's, put
 * back on every status update (whoever removed or changed them); true when one was.
 */
export function restoreRequiredLabels(node: Node): boolean {
  const required = { [LABEL_OS]: goOs(process.platform), [LABEL_ARCH]: goArch(process.arch) };
  let restored = false;
  for (const [key, value] of Object.entries(required)) {
    if (node.metadata.labels?.[key] === value) continue;
    (node.metadata.labels ??= {})[key] = value;
    restored = true;
  }
  return restored;
}
