// What a request to the node agent's secure port asks to do, as upstream's
// nodeAuthorizerAttributesGetter puts it (with KubeletFineGrainedAuthz, on by default): the verb
// from the HTTP method, resource `nodes` named after this node in the core group, and the
// subresource from the path. Paths with a fine-grained subresource (/pods, /healthz, /configz,
// /statusz, /runningpods/) carry it first and `proxy` second: either grant allows the request.
import type { UserInfo } from '../../core/authn/user.js';
import type { Attributes } from '../../core/authz/attributes.js';

const VERBS: Readonly<Record<string, string>> = { POST: 'create', GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** isSubpath: the path itself, or below it (`/statsfoo` is not below `/stats/`). */
export function isSubpath(subpath: string, path: string): boolean {
  const p = path.replace(/\/$/, '');
  return subpath === p || (subpath.startsWith(p) && subpath[p.length] === '/');
}

export function subresourcesOf(path: string): string[] {
  const out: string[] = [];
  if (isSubpath(path, '/pods')) out.push('pods');
  else if (isSubpath(path, '/healthz')) out.push('healthz');
  else if (isSubpath(path, '/configz')) out.push('configz');
  else if (isSubpath(path, '/statusz')) out.push('statusz');
  else if (isSubpath(path, '/runningpods/')) out.push('pods');

  if (isSubpath(path, '/stats/')) out.push('stats');
  else if (isSubpath(path, '/metrics')) out.push('metrics');
  else if (isSubpath(path, '/logs/')) out.push('log');
  else if (isSubpath(path, '/checkpoint/')) out.push('checkpoint');
  else out.push('proxy');
  return out;
}

export function nodeRequestAttributes(user: UserInfo, method: string, path: string, nodeName: string): Attributes[] {
  const verb = VERBS[method] ?? '';
  return subresourcesOf(path).map((subresource) => ({
    user, verb, isResourceRequest: true, path, apiGroup: '', apiVersion: 'v1',
    resource: 'nodes', subresource, namespace: '', name: nodeName,
  }));
}
