// The static part of what a node may do: upstream's bootstrappolicy.NodeRules(), kept to the
// resources plat serves (renamed groups), matched with RBAC's rule semantics (verbs and resources
// with "*", `resource/subresource`, `*/subresource`). Nodes, leases, secrets, configmaps and
// service-account tokens are decided by node-authorizer.ts before these rules are consulted.
//
// Left out because plat serves no such resources: pods (and status, eviction), services,
// endpoints, persistentvolumes and claims, volumeattachments, csidrivers, csinodes,
// runtimeclasses, resourceslices and resourceclaims, clustertrustbundles, podcertificaterequests.
import type { Attributes } from '../../core/authz/attributes.js';
import { servedGroup } from '../../core/authz/served-group.js';

export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
}

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });

export const NODE_RULES: readonly PolicyRule[] = Object.freeze([
  // Needed to check API access; these creates are non-mutating.
  rule(['create'], ['authentication.platform'], ['tokenreviews']),
  rule(['create'], ['authorization.platform'], ['subjectaccessreviews', 'localsubjectaccessreviews']),
  // Nodes register their Node object and report status (NodeRestriction limits them to their own).
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['update', 'patch'], [''], ['nodes/status']),
  rule(['update', 'patch'], [''], ['nodes']),
  // The node agent's Events (Starting, NodeReady, ...).
  rule(['create', 'update', 'patch'], [''], ['events']),
  // Secrets and configmaps of the node's pods (the Node authorizer's graph narrows this).
  rule(['get', 'list', 'watch'], [''], ['secrets', 'configmaps']),
  // The node agent's own client certificate: create its CSR and watch for it to be signed.
  rule(['create', 'get', 'list', 'watch'], ['certificates.platform'], ['certificatesigningrequests']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['coordination.platform'], ['leases']),
  rule(['create'], [''], ['serviceaccounts/token']),
]);

const has = (list: readonly string[], v: string): boolean => list.includes('*') || list.includes(v);

function resourceMatches(r: PolicyRule, a: Attributes): boolean {
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return r.resources.some((res) => res === '*' || res === combined || (a.subresource !== '' && res === `*/${a.subresource}`));
}

/** rbac.RulesAllow for resource requests; there are no non-resource node rules. */
export function rulesAllow(a: Attributes, rules: readonly PolicyRule[] = NODE_RULES): boolean {
  if (!a.isResourceRequest) return false;
  const group = servedGroup(a.apiGroup);
  return rules.some((r) => has(r.verbs, a.verb) && has(r.apiGroups, group) && resourceMatches(r, a));
}
