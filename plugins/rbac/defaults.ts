// rbac/v1 defaulting (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding, SetDefaults_Subject):
// an empty roleRef.apiGroup is the RBAC group; a User or Group subject's empty apiGroup too, a
// ServiceAccount's stays "". Empty optional fields are dropped, as the v1 JSON form's omitempty
// does (a role's rules have no omitempty: none are `null`). Upstream defaults at decode; here the strategies and the escalation check apply it (the
// check runs before the strategy, so it reads the defaulted roleRef itself).
import { GROUP_KIND, RBAC_GROUP, UPSTREAM_RBAC_GROUP, USER_KIND, type Role, type RoleBinding, type RoleRef, type Subject } from './types.js';

export function defaultRoleRef(ref: RoleRef | undefined): RoleRef {
  const out: RoleRef = { ...(ref ?? {}) };
  if (!out.apiGroup) out.apiGroup = RBAC_GROUP;
  return out;
}

export function defaultSubject(s: Subject): Subject {
  const out: Subject = { ...s };
  // omitempty upstream: an empty apiGroup or namespace is not kept.
  if (out.namespace === '') delete out.namespace;
  if (out.apiGroup === '') delete out.apiGroup;
  if (!out.apiGroup && (out.kind === USER_KIND || out.kind === GROUP_KIND)) out.apiGroup = RBAC_GROUP;
  return out;
}

export function defaultBinding(b: RoleBinding): void {
  b.roleRef = defaultRoleRef(b.roleRef);
  if (Array.isArray(b.subjects)) b.subjects = b.subjects.map((s) => defaultSubject(s ?? {}));
  // omitempty: an empty list is not kept.
  if (!b.subjects?.length) delete b.subjects;
}

const OPTIONAL_RULE_LISTS = ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/**
 * omitempty upstream: a rule's empty optional lists are not kept. `rules` itself has no omitempty,
 * and an empty list comes back from protobuf storage as a nil slice: `"rules": null`.
 */
export function normalizeRules(r: Role): void {
  for (const rule of r.rules ?? []) {
    for (const k of OPTIONAL_RULE_LISTS) if (Array.isArray(rule?.[k]) && rule[k]!.length === 0) delete rule[k];
  }
  if (!r.rules?.length) r.rules = null;
}

/**
 * Only User and Group subjects name the RBAC group: a ServiceAccount subject's apiGroup must be
 * empty, and one that is not keeps the value the client sent, for validation to quote.
 */
function renameGroup(b: RoleBinding, from: string, to: string): void {
  if (b.roleRef?.apiGroup === from) b.roleRef = { ...b.roleRef, apiGroup: to };
  const named = (s: Subject) => s?.apiGroup === from && (s.kind === USER_KIND || s.kind === GROUP_KIND);
  if (Array.isArray(b.subjects)) b.subjects = b.subjects.map((s) => (named(s) ? { ...s, apiGroup: to } : s));
}

/**
 * A binding sent under the upstream group (`kubectl create rolebinding` and friends) names that
 * group in roleRef and in User and Group subjects: here it means this one.
 */
export function bindingFromUpstreamGroup(b: RoleBinding): void {
  renameGroup(b, UPSTREAM_RBAC_GROUP, RBAC_GROUP);
}

/**
 * The way back, for answers under the upstream group: a client there compares roleRef with the one
 * it sent (kubectl auth reconcile recreates a binding whose roleRef differs), so it must read its
 * own group name.
 */
export function bindingToUpstreamGroup(b: RoleBinding): void {
  renameGroup(b, RBAC_GROUP, UPSTREAM_RBAC_GROUP);
}
