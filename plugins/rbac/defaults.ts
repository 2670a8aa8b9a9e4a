// rbac/v1 defaulting (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding, SetDefaults_Subject):
// an empty roleRef.apiGroup is the RBAC group; a User or Group subject's empty apiGroup too, a
// ServiceAccount's stays "". Upstream defaults at decode; here the strategies and the escalation
// check apply it (the check runs before the strategy, so it reads the defaulted roleRef itself).
import { GROUP_KIND, RBAC_GROUP, USER_KIND, type RoleBinding, type RoleRef, type Subject } from './types.js';

export function defaultRoleRef(ref: RoleRef | undefined): RoleRef {
  const out: RoleRef = { ...(ref ?? {}) };
  if (!out.apiGroup) out.apiGroup = RBAC_GROUP;
  return out;
}

export function defaultSubject(s: Subject): Subject {
  if (s.apiGroup || (s.kind !== USER_KIND && s.kind !== GROUP_KIND)) return s;
  return { ...s, apiGroup: RBAC_GROUP };
}

export function defaultBinding(b: RoleBinding): void {
  b.roleRef = defaultRoleRef(b.roleRef);
  if (Array.isArray(b.subjects)) b.subjects = b.subjects.map((s) => defaultSubject(s ?? {}));
}
