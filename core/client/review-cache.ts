// Answers of review APIs (TokenReview, SubjectAccessReview, a token webhook), remembered as
// upstream's delegating authenticator and authorizer and its token cache do: each answer for the
// TTL its kind gets (a TTL of 0 caches nothing); failures to get an answer are not cached;
// concurrent lookups of one key share one request. Keys are digests (a token never stays in
// memory past its request). Bounded: least recently used entries go first.
import { createHash } from 'node:crypto';
import { LruExpireCache } from '../lru-expire-cache.js';

export const MAX_ENTRIES = 10_000;

export const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url');

export class ReviewCache<V> {
  readonly #entries: LruExpireCache<V>;
  readonly #inflight = new Map<string, Promise<V>>();

  /** `ttlOf` picks the TTL of an answer (authorized and unauthorized answers have their own). */
  constructor(private readonly ttlOf: (value: V) => number, now: () => number = () => performance.now(), maxEntries = MAX_ENTRIES) {
    this.#entries = new LruExpireCache(maxEntries, now);
  }

  get size(): number { return this.#entries.size; }

  async get(key: string, fetch: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const p = fetch().then((value) => {
      const ttl = this.ttlOf(value);
      if (ttl > 0) this.#entries.set(key, value, ttl);
      return value;
    }).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }
}
