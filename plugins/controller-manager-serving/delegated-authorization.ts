// May the caller do this on the controller manager's endpoint? Upstream's delegating authorizer,
// a union where the first allow or deny wins: members of system:masters always may (the API
// server would allow them anyway); --authorization-always-allow-paths (exact, or a prefix ending
// in `*`) may be read by anyone; otherwise a SubjectAccessReview to the API server with the
// --authorization-kubeconfig credentials decides, cached per question for the authorized or
// unauthorized TTL. No opinion from anyone, or no authorization kubeconfig, is forbidden. An
// answer that does not read as a SubjectAccessReview (core/authz/review-status.ts) fails the
// request (500) and is not cached.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { MASTERS_GROUP } from '../../core/authn/user.js';
import { RestClient, type RestClientOptions } from '../../core/client/rest-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { digest, ReviewCache } from '../../core/client/review-cache.js';
import { withRetry } from '../../core/client/review-retry.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { Logger } from '../../core/log.js';
import { parseReviewStatus, reviewDecision, type ReviewStatus } from '../../core/authz/review-status.js';

const PATH = '/apis/authorization.platform/v1/subjectaccessreviews';

const API_VERSION = 'authorization.platform/v1';

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
 * DelegatingAuthorizationOptions' ClientTimeout (10s), the rest.Config Timeout of its client: each
 * review request is bounded by it and sends it (`?timeout=10s`); the webhook authorizer puts no
 * timeout of its own over the retries.
 */
export const SAR_CLIENT_TIMEOUT_MS = 10_000;

export class SubjectAccessReviewer {
  readonly #client: RestClient;
  readonly #cache: ReviewCache<ReviewStatus>;
  /**
   * `client`: the user agent and metrics of the endpoint's clients; upstream raises the limits to
   * 200/400. `logger` gets the webhook authorizer's line for a review that could not be made.
   */
  constructor(connection: ClientConnection, ttl: { allowedMs: number; deniedMs: number }, client: Pick<RestClientOptions, 'userAgent' | 'metrics'>, private readonly logger?: Logger) {
    this.#client = new RestClient(connection, { ...client, qps: 200, burst: 400, timeoutMs: SAR_CLIENT_TIMEOUT_MS });
    this.#cache = new ReviewCache((s) => (s.allowed ? ttl.allowedMs : ttl.deniedMs));
  }

  close(): void { this.#client.close(); }

  async decide(a: Attributes): Promise<Decision | undefined> {
    const spec = reviewSpec(a);
    const status = await this.#cache.get(digest(JSON.stringify(spec)), async () => {
      let answer: unknown;
      try {
        answer = await withRetry(() => this.#client.request<unknown>('POST', PATH, {
          body: { apiVersion: API_VERSION, kind: 'SubjectAccessReview', spec },
        }), { timeoutMs: 0 });
      } catch (e) {
        this.logger?.error(`Failed to make webhook authorizer request: ${goClientErrorText(e)}`);
        throw e;
      }
      return parseReviewStatus(answer, API_VERSION);
    });
    return reviewDecision(status);
  }
}

export class DelegatedAuthorizer {
  readonly #alwaysAllowed: (path: string) => boolean;
  constructor(alwaysAllowPaths: readonly string[], private readonly reviews: SubjectAccessReviewer | undefined) {
    this.#alwaysAllowed = pathMatcher(alwaysAllowPaths);
  }

  /** Allow, deny, or no opinion (forbidden); throws when the API server could not be asked. */
  async authorize(a: Attributes): Promise<Decision | undefined> {
    if (a.user.groups.includes(MASTERS_GROUP)) return { decision: 'allow' };
    if (!a.isResourceRequest && this.#alwaysAllowed(a.path)) return { decision: 'allow' };
    return this.reviews?.decide(a);
  }
}
