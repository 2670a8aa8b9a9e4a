// The webhook's answers, remembered as upstream's LRUExpireCache(8192) does: keyed by the whole
// question (the SubjectAccessReviewSpec's JSON), each entry with its own expiry (the authorized or
// the unauthorized TTL), least recently used first out when full. Failures are never stored.
import type { ReviewStatus } from './subject-access-review-client.js';

export const DEFAULT_MAX_ENTRIES = 8192;

interface Entry { readonly expiresAt: number; readonly status: ReviewStatus }

export class DecisionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #now: () => number;

  constructor(o: { maxEntries?: number; now?: () => number } = {}) {
    this.#max = o.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#now = o.now ?? Date.now;
  }

  get size(): number { return this.#entries.size; }

  get(key: string): ReviewStatus | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    if (hit.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, hit);
    return hit.status;
  }

  set(key: string, status: ReviewStatus, ttlMs: number): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { expiresAt: this.#now() + ttlMs, status });
  }
}
