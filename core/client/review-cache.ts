// Answers of the API server's review APIs, remembered as upstream's delegating authenticator and
// authorizer do: each answer for the TTL its kind gets (a TTL of 0 caches nothing); failures to
// get an answer are not cached; concurrent lookups of one key share one request. Keys are digests
// (a token never stays in memory past its request). Bounded: least recently used entries go first.
import { createHash } from 'node:crypto';

export const MAX_ENTRIES = 10_000;

export const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url');

export class ReviewCache<V> {
  readonly #entries = new Map<string, { expiresAt: number; value: V }>();
  readonly #inflight = new Map<string, Promise<V>>();

  /** `ttlOf` picks the TTL of an answer (authorized and unauthorized answers have their own). */
  constructor(private readonly ttlOf: (value: V) => number, private readonly now: () => number = Date.now) {}

  async get(key: string, fetch: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      if (hit.expiresAt > this.now()) {
        this.#entries.set(key, hit);
        return hit.value;
      }
    }
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const p = fetch().then((value) => {
      const ttl = this.ttlOf(value);
      if (ttl > 0) this.#set(key, value, ttl);
      return value;
    }).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  #set(key: string, value: V, ttl: number): void {
    while (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { expiresAt: this.now() + ttl, value });
  }
}
