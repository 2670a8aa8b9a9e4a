// The webhook's verdicts, remembered for --authentication-token-webhook-cache-ttl, as upstream's
// token cache does for this authenticator: authenticated and not-authenticated answers are both
// cached; failures to get an answer are not, nor is a refusal that carries status.error, which
// webhook.go turns into an error and tokencache.New(..., cacheErrs false, ...) keeps out.
// Concurrent reviews of one token share one webhook call (upstream coalesces them too).
import { createHash } from 'node:crypto';
import { ReviewCache as AnswerCache } from '../../core/client/review-cache.js';
import type { ReviewResult } from './token-review-client.js';

export const DEFAULT_MAX_ENTRIES = 10_000;

export interface ReviewCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly now?: () => number;
}

/** The audiences are part of the key, as in upstream's token cache: the verdict depends on them. */
export const cacheKey = (token: string, audiences: readonly string[] = []): string => {
  const h = createHash('sha256');
  for (const a of audiences) h.update(`${Buffer.byteLength(a)}:${a}`);
  return h.update('|').update(Buffer.from(token, 'latin1')).digest('base64url');
};

export class ReviewCache {
  readonly #answers: AnswerCache<ReviewResult>;
  readonly #ttlMs: number;

  constructor(o: ReviewCacheOptions) {
    this.#ttlMs = o.ttlMs;
    this.#answers = new AnswerCache((r) => (r.authenticated || !r.error ? o.ttlMs : 0), o.now, o.maxEntries ?? DEFAULT_MAX_ENTRIES);
  }

  get size(): number { return this.#answers.size; }

  /** The cached verdict for `token` and `audiences`, or `review(token)`'s, cached when it resolves. */
  get(token: string, review: (token: string) => Promise<ReviewResult>, audiences: readonly string[] = []): Promise<ReviewResult> {
    if (this.#ttlMs <= 0) return review(token);
    return this.#answers.get(cacheKey(token, audiences), () => review(token));
  }
}
