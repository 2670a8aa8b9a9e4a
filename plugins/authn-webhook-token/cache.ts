// The webhook's verdicts, remembered for --authentication-token-webhook-cache-ttl, as upstream's
// token cache does for this authenticator: authenticated and not-authenticated answers are both
// cached; failures to get an answer are not, nor is a refusal that carries status.error, which
// webhook.go turns into an error and tokencache.New(..., cacheErrs false, ...) keeps out. Keys are SHA-256 digests of the token, so no token is
// kept in memory past its request. Bounded: least recently used entries go first. Concurrent
// reviews of one token share one webhook call (upstream coalesces them too).
import { createHash } from 'node:crypto';
import type { ReviewResult } from './token-review-client.js';

export const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry { readonly expiresAt: number; readonly result: ReviewResult }

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
  readonly #entries = new Map<string, Entry>();
  readonly #inflight = new Map<string, Promise<ReviewResult>>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(o: ReviewCacheOptions) {
    this.#ttlMs = o.ttlMs;
    this.#max = o.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#now = o.now ?? Date.now;
  }

  get size(): number { return this.#entries.size; }

  /** The cached verdict for `token` and `audiences`, or `review(token)`'s, cached when it resolves. */
  async get(token: string, review: (token: string) => Promise<ReviewResult>, audiences: readonly string[] = []): Promise<ReviewResult> {
    if (this.#ttlMs <= 0) return review(token);
    const key = cacheKey(token, audiences);
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      if (hit.expiresAt > this.#now()) {
        this.#entries.set(key, hit);
        return hit.result;
      }
    }
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const p = review(token).then((result) => {
      if (result.authenticated || !result.error) this.#set(key, result);
      return result;
    }).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  #set(key: string, result: ReviewResult): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { expiresAt: this.#now() + this.#ttlMs, result });
  }
}
