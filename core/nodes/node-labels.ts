// Which labels a node may put on its own Node: k8s.io/kubelet/pkg/apis/well_known_labels.go, shared
// as upstream shares it by the node agent (--node-labels is refused at start-up) and by the
// NodeRestriction admission plugin (a node's create or update is refused). The rename maps both
// `kubernetes.io` and `k8s.io` to `platform`, so "the reserved namespace" is `platform` and any
// `*.platform` domain, and upstream's spellings of it, which mean the same.

/** Labels the agent sets itself (upstream kubernetes.io/hostname, kubernetes.io/os, ...). */
export const LABEL_HOSTNAME = 'platform/hostname';
export const LABEL_OS = 'platform/os';
export const LABEL_ARCH = 'platform/arch';
export const LABEL_OS_BETA = 'beta.platform/os';
export const LABEL_ARCH_BETA = 'beta.platform/arch';
export const LABEL_INSTANCE_TYPE = 'node.platform/instance-type';
export const LABEL_INSTANCE_TYPE_BETA = 'beta.platform/instance-type';
export const LABEL_TOPOLOGY_ZONE = 'topology.platform/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.platform/region';
export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.platform/zone';
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.platform/region';
export const LABEL_WINDOWS_BUILD = 'node.platform/windows-build';

/** kubectl's ROLES column (upstream node-role.kubernetes.io/<role> and kubernetes.io/role). */
export const LABEL_NODE_ROLE_PREFIX = 'node-role.platform/';
export const LABEL_NODE_ROLE = 'platform/role';

/** Label namespaces only an administrator may set on a Node (upstream node-restriction.kubernetes.io). */
export const LABEL_NAMESPACE_NODE_RESTRICTION = 'node-restriction.platform';

/** IsKubeletLabel's fixed set, sorted as KubeletLabels() lists it. */
export const NODE_AGENT_LABELS: readonly string[] = [
  LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_INSTANCE_TYPE_BETA, LABEL_INSTANCE_TYPE, LABEL_OS, LABEL_ARCH, LABEL_OS_BETA, LABEL_ARCH_BETA,
].sort();
/** IsKubeletLabel's namespaces (upstream kubelet.kubernetes.io and node.kubernetes.io), sorted. */
export const NODE_AGENT_LABEL_NAMESPACES: readonly string[] = ['nodeagent.platform', 'node.platform'].sort();

/** The part of a label key before '/', or '' when there is none. */
export function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const inNamespace = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

const UPSTREAM_DOMAINS = ['kubernetes.io', 'k8s.io'];
/**
 * A key as plat spells it: upstream's `kubernetes.io` and `k8s.io` namespaces stay reserved under
 * their own names too, since tools built for Kubernetes (kubectl's ROLES column) read them; so
 * `node-role.kubernetes.io/x` is `node-role.platform/x` and `kubernetes.io/hostname` is `platform/hostname`.
 */
function platformSpelling(key: string): string {
  const ns = labelNamespace(key);
  for (const domain of UPSTREAM_DOMAINS) {
    if (inNamespace(ns, domain)) return `${ns.slice(0, ns.length - domain.length)}platform${key.slice(ns.length)}`;
  }
  return key;
}

/** isKubernetesLabel: a key in the reserved namespace or one of its subdomains. */
export const isPlatformLabel = (key: string): boolean => inNamespace(labelNamespace(platformSpelling(key)), 'platform');

/** IsKubeletLabel: a key a node may set on itself although it is in the reserved namespace. */
export function isNodeAgentLabel(key: string): boolean {
  const k = platformSpelling(key);
  if (NODE_AGENT_LABELS.includes(k)) return true;
  const ns = labelNamespace(k);
  return NODE_AGENT_LABEL_NAMESPACES.some((allowed) => inNamespace(ns, allowed));
}

/** getForbiddenLabels of NodeRestriction: node-restriction labels, and reserved ones a node may not set. */
export function isLabelForbiddenToNodes(key: string): boolean {
  if (inNamespace(labelNamespace(platformSpelling(key)), LABEL_NAMESPACE_NODE_RESTRICTION)) return true;
  return isPlatformLabel(key) && !isNodeAgentLabel(key);
}
