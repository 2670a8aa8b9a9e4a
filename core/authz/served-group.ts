// Clients built for Kubernetes write upstream's group names (kubectl create role's bind, escalate
// and impersonate verbs accept only `rbac.authorization.k8s.io` and `authentication.k8s.io`; a
// SubjectAccessReview from such a tool asks about `certificates.k8s.io`), and such a name means the
// group plat serves, so every authorizer that matches groups reads both names alike.

const UPSTREAM_SUFFIX = '.k8s.io';

/** plat's name of an upstream group: `X.k8s.io` is served as `X.platform`; any other name is itself. */
export function servedGroup(group: string): string {
  return group.endsWith(UPSTREAM_SUFFIX) ? `${group.slice(0, -UPSTREAM_SUFFIX.length)}.platform` : group;
}
