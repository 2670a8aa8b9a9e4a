// Upstream's scheduler.RateLimitedTimedQueue: the per-zone queue of nodes waiting for their
// NoExecute taint. Each node is in it once (until removed), ordered by when it may be processed,
// and a token bucket (burst 1) spaces the taints out: --node-eviction-rate nodes a second in a
// healthy zone, the secondary rate or none in a disrupted one. Time is injected (milliseconds).

/** EvictionRateLimiterBurst. */
export const EVICTION_RATE_LIMITER_BURST = 1;

/** flowcontrol.RateLimiter's TryAccept side: a token bucket, or (qps <= 0 after a swap) never. */
export class TryAcceptLimiter {
  #tokens: number;
  #last: number;
  constructor(readonly qps: number, private readonly now: () => number, readonly burst = EVICTION_RATE_LIMITER_BURST, readonly never = false) {
    this.#tokens = never ? 0 : burst;
    this.#last = now();
  }

  tryAccept(): boolean {
    if (this.never) return false;
    // rate.Inf: always (a test's FakeAlwaysRateLimiter).
    if (this.qps === Infinity) return true;
    const t = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((t - this.#last) / 1000) * this.qps);
    this.#last = t;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export interface TimedValue {
  readonly value: string;
  readonly uid: string;
  readonly addedAt: number;
  processAt: number;
}

/** An action's answer: done, or retry after `waitMs` (upstream's ActionFunc). */
export type TimedAction = (v: TimedValue) => Promise<{ done: boolean; waitMs?: number }>;

export class RateLimitedTimedQueue {
  /** UniqueQueue's heap, kept sorted by processAt (zones hold few nodes). */
  readonly #queue: TimedValue[] = [];
  /** Values added and not removed: a value taken by Try stays here, so it is not queued again. */
  readonly #set = new Set<string>();
  #limiter: TryAcceptLimiter;

  constructor(qps: number, private readonly now: () => number) {
    this.#limiter = new TryAcceptLimiter(qps, now);
  }

  get qps(): number { return this.#limiter.never ? 0 : this.#limiter.qps; }
  /** The values waiting, in order (tests, logs). */
  values(): string[] { return this.#queue.map((v) => v.value); }

  #insert(v: TimedValue): void {
    const i = this.#queue.findIndex((x) => x.processAt > v.processAt);
    if (i < 0) this.#queue.push(v); else this.#queue.splice(i, 0, v);
  }

  /** Adds a value not added before (or removed since); true when added. */
  add(value: string, uid: string): boolean {
    if (this.#set.has(value)) return false;
    const now = this.now();
    this.#insert({ value, uid, addedAt: now, processAt: now });
    this.#set.add(value);
    return true;
  }

  /** Takes a value out and lets it be added again; true when it was there. */
  remove(value: string): boolean {
    if (!this.#set.delete(value)) return false;
    const i = this.#queue.findIndex((v) => v.value === value);
    if (i >= 0) this.#queue.splice(i, 1);
    return true;
  }

  /**
   * Try: while the head is due and the limiter gives a token, runs `fn` on it; done values leave
   * the queue but stay in the set (processed once until removed), the others are queued again
   * `waitMs` later.
   */
  async try(fn: TimedAction): Promise<void> {
    for (let head = this.#queue[0]; head; head = this.#queue[0]) {
      if (!this.#limiter.tryAccept()) return;
      const now = this.now();
      if (now < head.processAt) return;
      const { done, waitMs = 0 } = await fn(head);
      const i = this.#queue.indexOf(head);
      // Removed (the node became Ready) while fn ran: nothing to requeue.
      if (i < 0) continue;
      this.#queue.splice(i, 1);
      // Go adds one nanosecond to the wait; a millisecond clock adds one millisecond.
      if (!done) this.#insert({ ...head, processAt: now + waitMs + 1 });
    }
  }

  /**
   * SwapLimiter: a new rate (a zone changed state); none for qps <= 0. A limiter that has no token
   * now hands its shortage on, as upstream drains the new one (right for a burst of 1).
   */
  swapLimiter(qps: number): void {
    if (this.qps === qps) return;
    if (qps <= 0) { this.#limiter = new TryAcceptLimiter(0, this.now, EVICTION_RATE_LIMITER_BURST, true); return; }
    const next = new TryAcceptLimiter(qps, this.now);
    if (!this.#limiter.tryAccept()) next.tryAccept();
    this.#limiter = next;
  }
}
