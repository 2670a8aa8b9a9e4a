// May the caller do this on the node agent? authorization.mode AlwaysAllow allows everything;
// Webhook asks the API server with a SubjectAccessReview (authorization.platform/v1) through the
// node's own API client, as upstream's DelegatingAuthorizerConfig does: the v1 spec of the
// question is the cache key, allowed answers are kept cacheAuthorizedTTL and the others
// cacheUnauthorizedTTL (0: not at all), a review that failed, or an answer that does not read as
// a SubjectAccessReview (core/authz/review-status.ts), is not kept and is an error (500).
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { specFromAttributes, specToWire } from '../../core/authz/subject-access-review.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { digest, ReviewCache } from '../../core/client/review-cache.js';
import { withRetry } from '../../core/client/review-retry.js';
import { parseReviewStatus, reviewDecision, type ReviewStatus } from '../../core/authz/review-status.js';

const PATH = '/apis/authorization.platform/v1/subjectaccessreviews';

const API_VERSION = 'authorization.platform/v1';

export interface NodeAgentAuthorizer {
  /** Allow, deny or no opinion; throws when no decision could be had (upstream: "Authorization error", 500). */
  authorize(a: Attributes): Promise<Decision | undefined>;
}

export const alwaysAllow: NodeAgentAuthorizer = { authorize: async () => ({ decision: 'allow' }) };

/** The kubelet's filter forbids whatever is not allowed, without the reviewer's reason. */
function decisionOf(status: ReviewStatus): Decision | undefined {
  const d = reviewDecision(status);
  return d?.decision === 'noOpinion' ? undefined : d;
}

export class SubjectAccessReviewer implements NodeAgentAuthorizer {
  readonly #cache: ReviewCache<ReviewStatus>;

  constructor(private readonly client: () => RestClient | undefined, ttl: { allowedMs: number; deniedMs: number }, now: () => number = () => performance.now()) {
    this.#cache = new ReviewCache((s) => (s.allowed ? ttl.allowedMs : ttl.deniedMs), now);
  }

  async authorize(a: Attributes): Promise<Decision | undefined> {
    const spec = specToWire(specFromAttributes(a), 'v1');
    const status = await this.#cache.get(digest(JSON.stringify(spec)), () => withRetry(async (signal) => {
      const api = this.client();
      if (!api) throw new Error('the node agent has no API client yet');
      const answer = await api.request<unknown>('POST', PATH, {
        body: { apiVersion: API_VERSION, kind: 'SubjectAccessReview', spec }, ...(signal ? { signal } : {}),
      });
      return parseReviewStatus(answer, API_VERSION);
    }));
    return decisionOf(status);
  }
}
