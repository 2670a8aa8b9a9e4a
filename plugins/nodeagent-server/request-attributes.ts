// What a request to the node agent's secure port asks to do, as upstream's
// nodeAuthorizerAttributesGetter puts it: the verb from the HTTP method, resource `nodes` named
// after this node in the core group, and the subresource from the path. With the
// KubeletFineGrainedAuthz gate (on by default) paths with a fine-grained subresource (/pods,
// /healthz, /configz, /statusz, /runningpods/) carry it first and `proxy` second, either grant
// allowing the request; with the gate off they ask for `proxy` alone, so an operator who turns it
// off takes `nodes/pods` and the like back from what admits them.
import type { UserInfo } from '../../core/authn/user.js';
import type { Attributes } from '../../core/authz/attributes.js';

const VERBS: Readonly<Record<string, string>> = { POST: 'create', GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** isSubpath: the path itself, or below it (`/statsfoo` is not below `/stats/`). */
export function isSubpath(subpath: string, path: string): boolean {
  const p = path.replace(/\/$/, '');
  return subpath === p || (subpath.startsWith(p) && subpath[p.length] === '/');
}

function fineGrainedSubresource(path: string): string | undefined {
  if (isSubpath(path, '/pods')) return 'pods';
  if (isSubpath(path, '/healthz')) return 'healthz';
  if (isSubpath(path, '/configz')) return 'configz';
  if (isSubpath(path, '/statusz')) return 'statusz';
  if (isSubpath(path, '/runningpods/')) return 'pods';
  return undefined;
}

function coarseSubresource(path: string): string {
  if (isSubpath(path, '/stats/')) return 'stats';
  if (isSubpath(path, '/metrics')) return 'metrics';
  if (isSubpath(path, '/logs/')) return 'log';
  if (isSubpath(path, '/checkpoint/')) return 'checkpoint';
  return 'proxy';
}

export function subresourcesOf(path: string, fineGrained: boolean): string[] {
  const fine = fineGrained ? fineGrainedSubresource(path) : undefined;
  return fine ? [fine, coarseSubresource(path)] : [coarseSubresource(path)];
}

/** `fineGrained`: the agent's KubeletFineGrainedAuthz gate. */
export function nodeRequestAttributes(user: UserInfo, method: string, path: string, nodeName: string, fineGrained: boolean): Attributes[] {
  const verb = VERBS[method] ?? '';
  return subresourcesOf(path, fineGrained).map((subresource) => ({
    user, verb, isResourceRequest: true, path, apiGroup: '', apiVersion: 'v1',
    resource: 'nodes', subresource, namespace: '', name: nodeName,
  }));
}
