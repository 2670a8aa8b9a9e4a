// The webhook's answers, remembered as upstream's LRUExpireCache(8192) does: keyed by the whole
// question (the SubjectAccessReviewSpec's JSON), each entry with its own expiry (the authorized or
// the unauthorized TTL), least recently used first out when full. Failures are never stored.
import { LruExpireCache } from '../../core/lru-expire-cache.js';
import type { ReviewStatus } from './subject-access-review-client.js';

export const DEFAULT_MAX_ENTRIES = 8192;

export class DecisionCache extends LruExpireCache<ReviewStatus> {
  constructor(o: { maxEntries?: number; now?: () => number } = {}) {
    super(o.maxEntries ?? DEFAULT_MAX_ENTRIES, o.now);
  }
}
