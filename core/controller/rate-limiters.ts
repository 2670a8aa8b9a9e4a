// Work-queue rate limiters (client-go's workqueue): how long an item waits before it is retried.
import { TokenBucket } from '../client/token-bucket.js';

export interface RateLimiter<K> {
  /** Delay before `item` may be processed again; counts a failure. */
  when(item: K): number;
  forget(item: K): void;
  numRequeues(item: K): number;
}

/** base * 2^failures, capped at max: per-item exponential backoff. */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  readonly #failures = new Map<K, number>();
  constructor(readonly baseMs: number, readonly maxMs: number) {}
  when(item: K): number {
    const n = this.#failures.get(item) ?? 0;
    this.#failures.set(item, n + 1);
    const delay = this.baseMs * 2 ** n;
    return Number.isFinite(delay) ? Math.min(delay, this.maxMs) : this.maxMs;
  }
  forget(item: K): void { this.#failures.delete(item); }
  numRequeues(item: K): number { return this.#failures.get(item) ?? 0; }
}

/** One token bucket for all items: overall retry qps. */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #bucket: TokenBucket;
  constructor(qps: number, burst: number, now?: () => number) { this.#bucket = new TokenBucket(qps, burst, now); }
  when(): number { return this.#bucket.reserve(); }
  forget(): void {}
  numRequeues(): number { return 0; }
}

export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: readonly RateLimiter<K>[];
  constructor(...limiters: RateLimiter<K>[]) { this.#limiters = limiters; }
  when(item: K): number { return Math.max(...this.#limiters.map((l) => l.when(item))); }
  forget(item: K): void { for (const l of this.#limiters) l.forget(item); }
  numRequeues(item: K): number { return Math.max(...this.#limiters.map((l) => l.numRequeues(item))); }
}

/** The CSR controllers' limiter (k8s-behaviour §4.1): max of 200ms..1000s per item and 10 qps, burst 100. */
export const csrControllerRateLimiter = <K>(): RateLimiter<K> =>
  new MaxOfRateLimiter<K>(new ItemExponentialFailureRateLimiter<K>(200, 1000_000), new BucketRateLimiter<K>(10, 100));

/** workqueue.DefaultTypedControllerRateLimiter: max of 5ms..1000s per item and 10 qps, burst 100. */
export const defaultControllerRateLimiter = <K>(): RateLimiter<K> =>
  new MaxOfRateLimiter<K>(new ItemExponentialFailureRateLimiter<K>(5, 1000_000), new BucketRateLimiter<K>(10, 100));
