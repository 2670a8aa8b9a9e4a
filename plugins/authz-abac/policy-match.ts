// Whether one ABAC policy allows a request: upstream's abac.go matches(), subjectMatches(),
// verbMatches(), resourceMatches() and nonResourceMatches(), rule for rule. A policy with neither
// user nor group matches nobody; "*" matches any value of namespace, resource and apiGroup (an
// empty one matches only the empty value: cluster scope, the core group); a nonResourcePath
// matches exactly, as "*", or by prefix when it ends in "*".
import type { UserInfo } from '../../core/authn/user.js';
import type { Attributes } from '../../core/authz/attributes.js';
import type { Policy } from './policy-file.js';

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

export function subjectMatches(p: Policy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user === '*') matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group !== '') {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

/** Every policy allows read-only verbs; a readonly policy allows nothing else. */
export function verbMatches(p: Policy, a: Attributes): boolean {
  return READ_ONLY_VERBS.has(a.verb) || !p.readonly;
}

export function resourceMatches(p: Policy, a: Attributes): boolean {
  if (!a.isResourceRequest) return false;
  return (p.namespace === '*' || p.namespace === a.namespace)
    && (p.resource === '*' || p.resource === a.resource)
    && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

export function nonResourceMatches(p: Policy, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  if (p.nonResourcePath === '*' || p.nonResourcePath === a.path) return true;
  // Go's strings.TrimRight(path, "*"): every trailing star goes.
  return p.nonResourcePath.endsWith('*') && a.path.startsWith(p.nonResourcePath.replace(/\*+$/, ''));
}

export function policyMatches(p: Policy, a: Attributes): boolean {
  return subjectMatches(p, a.user) && verbMatches(p, a) && (resourceMatches(p, a) || nonResourceMatches(p, a));
}
