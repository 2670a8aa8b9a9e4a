// May the caller do this on the controller manager's endpoint? Upstream's delegating authorizer,
// a union where the first allow or deny wins: members of system:masters always may (the API
// server would allow them anyway); --authorization-always-allow-paths (exact, or a prefix ending
// in `*`) may be read by anyone; otherwise a SubjectAccessReview to the API server with the
// --authorization-kubeconfig credentials decides, cached per question for the authorized or
// unauthorized TTL. No opinion from anyone, or no authorization kubeconfig, is forbidden.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { MASTERS_GROUP } from '../../core/authn/user.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { digest, ReviewCache } from '../../core/client/review-cache.js';
import { withRetry } from '../../core/client/review-retry.js';

const PATH = '/apis/authorization.platform/v1/subjectaccessreviews';

interface SarStatus { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string }

/** path.NewAuthorizer: exact paths, and prefixes written with a trailing `*`. */
export function pathMatcher(paths: readonly string[]): (path: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of paths) {
    const t = p.replace(/^\//, '');
    if (t.endsWith('*')) prefixes.push(t.slice(0, -1));
    else exact.add(t);
  }
  return (path) => {
    const t = path.replace(/^\//, '');
    return exact.has(t) || prefixes.some((x) => t.startsWith(x));
  };
}

/** The SubjectAccessReview spec asking about `a`. */
export function reviewSpec(a: Attributes): Record<string, unknown> {
  const u = a.user;
  return {
    user: u.name, groups: [...u.groups], ...(u.uid ? { uid: u.uid } : {}), ...(u.extra ? { extra: u.extra } : {}),
    ...(a.isResourceRequest
      ? { resourceAttributes: { namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name } }
      : { nonResourceAttributes: { path: a.path, verb: a.verb } }),
  };
}

/**
 * No opinion, with the reviewer's reason: upstream's webhook authorizer passes it on, and the 403
 * then ends with it as with a denial's.
 */
export interface NoOpinion { readonly decision: 'noOpinion'; readonly reason: string }

export function decisionOf(status: SarStatus | undefined): Decision | NoOpinion | undefined {
  const reason = status?.reason ?? '';
  if (status?.denied && status.allowed) throw new Error('webhook subject access review returned both allow and deny response');
  if (status?.denied) return { decision: 'deny', reason };
  if (status?.allowed) return { decision: 'allow', ...(reason ? { reason } : {}) };
  return reason ? { decision: 'noOpinion', reason } : undefined;
}

export class SubjectAccessReviewer {
  readonly #client: RestClient;
  readonly #cache: ReviewCache<SarStatus>;
  constructor(connection: ClientConnection, ttl: { allowedMs: number; deniedMs: number }, userAgent: string) {
    this.#client = new RestClient(connection, { qps: 200, burst: 400, userAgent });
    this.#cache = new ReviewCache((s) => (s.allowed ? ttl.allowedMs : ttl.deniedMs));
  }

  close(): void { this.#client.close(); }

  async decide(a: Attributes): Promise<Decision | NoOpinion | undefined> {
    const spec = reviewSpec(a);
    const status = await this.#cache.get(digest(JSON.stringify(spec)), () => withRetry(async (signal) => {
      const answer = await this.#client.request<{ status?: SarStatus }>('POST', PATH, {
        body: { apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview', spec }, signal,
      });
      return answer?.status ?? {};
    }));
    return decisionOf(status);
  }
}

export class DelegatedAuthorizer {
  readonly #alwaysAllowed: (path: string) => boolean;
  constructor(alwaysAllowPaths: readonly string[], private readonly reviews: SubjectAccessReviewer | undefined) {
    this.#alwaysAllowed = pathMatcher(alwaysAllowPaths);
  }

  /** Allow, deny, or no opinion (forbidden); throws when the API server could not be asked. */
  async authorize(a: Attributes): Promise<Decision | NoOpinion | undefined> {
    if (a.user.groups.includes(MASTERS_GROUP)) return { decision: 'allow' };
    if (!a.isResourceRequest && this.#alwaysAllowed(a.path)) return { decision: 'allow' };
    return this.reviews?.decide(a);
  }
}
