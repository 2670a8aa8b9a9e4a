// A work queue with client-go's guarantees: an item is never processed by two workers at once, an
// item added while it is being processed is processed again after done(), adding an item already
// waiting does nothing, retries go through a rate limiter, and an item waits for at most one
// delayed add (the earliest asked for), as client-go's delaying queue. A named queue given a
// registry reports client-go's workqueue metrics (core/metrics/workqueue.ts) at the same points.
import { queueMetrics, type QueueMetrics } from '../metrics/workqueue.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { setLongTimeout } from '../long-timeout.js';
import type { RateLimiter } from './rate-limiters.js';

export interface WorkQueueOptions {
  /** Upstream's queue Name, the metrics' `name` label ("certificate"). */
  readonly name?: string;
  readonly metrics?: MetricsRegistry | undefined;
  /**
   * A monotonic clock (ms) for when a delayed add is due; performance.now by default, as the
   * delaying queue's clock.Now() carries Go's monotonic reading: a step of the wall clock between
   * two delayed adds must not make the later one look earlier.
   */
  readonly monotonicNow?: () => number;
}

export class WorkQueue<K> {
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #waiters: ((k: K | undefined) => void)[] = [];
  /** Items waiting for a delayed add: when they are due and the timer that adds them. */
  readonly #delayed = new Map<K, { readyAt: number; cancel: () => void }>();
  #shuttingDown = false;
  /** Whoever waits in shutDown() for the items in flight to be done. */
  readonly #drained: (() => void)[] = [];
  readonly #metrics: QueueMetrics | undefined;
  readonly #now: () => number;

  constructor(private readonly limiter: RateLimiter<K>, options: WorkQueueOptions = {}) {
    this.#metrics = options.metrics ? queueMetrics(options.metrics, options.name ?? '') : undefined;
    this.#now = options.monotonicNow ?? performance.now.bind(performance);
  }

  get length(): number { return this.#queue.length; }
  get shuttingDown(): boolean { return this.#shuttingDown; }

  add(item: K): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#dirty.add(item);
    // Counted once, even while the item is being processed (it waits for done), as client-go's.
    this.#metrics?.add(item);
    if (this.#processing.has(item)) return;
    this.#enqueue(item);
  }

  /** A dirty item to a waiting worker at once, else to the back of the queue. */
  #enqueue(item: K): void {
    const waiter = this.#waiters.shift();
    if (waiter) { this.#hold(item); waiter(item); return; }
    this.#queue.push(item);
  }

  #hold(item: K): void {
    this.#dirty.delete(item);
    this.#processing.add(item);
    this.#metrics?.get(item);
  }

  /**
   * Adds `item` after `delayMs`. An item already waiting keeps the earlier of its two times: every
   * informer event on an item that keeps failing would otherwise start a backoff chain of its own,
   * and the chains together would retry it far more often than the limiter allows.
   */
  addAfter(item: K, delayMs: number): void {
    if (this.#shuttingDown) return;
    this.#metrics?.retry();
    if (delayMs <= 0) { this.add(item); return; }
    const readyAt = this.#now() + delayMs;
    const waiting = this.#delayed.get(item);
    if (waiting && waiting.readyAt <= readyAt) return;
    waiting?.cancel();
    // A bootstrap token's expiry can be months away, past what one Node timer holds.
    const cancel = setLongTimeout(() => { this.#delayed.delete(item); this.add(item); }, delayMs);
    this.#delayed.set(item, { readyAt, cancel });
  }

  addRateLimited(item: K): void { this.addAfter(item, this.limiter.when(item)); }
  forget(item: K): void { this.limiter.forget(item); }
  numRequeues(item: K): number { return this.limiter.numRequeues(item); }

  /** The next item, or undefined once the queue shuts down. */
  get(): Promise<K | undefined> {
    const item = this.#take();
    if (item !== undefined) return Promise.resolve(item);
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The oldest waiting item, now held as processing; undefined when none waits. */
  #take(): K | undefined {
    const item = this.#queue.shift();
    if (item !== undefined) this.#hold(item);
    return item;
  }

  /**
   * Up to `max` items at once: every item waiting now, or the next one to arrive when none is.
   * Each is held as get() holds it (done() per item); undefined once the queue shuts down.
   */
  async getBatch(max: number): Promise<K[] | undefined> {
    const first = await this.get();
    if (first === undefined) return undefined;
    const batch: K[] = [first];
    while (batch.length < max) {
      const item = this.#take();
      if (item === undefined) break;
      batch.push(item);
    }
    return batch;
  }

  done(item: K): void {
    this.#metrics?.done(item);
    this.#processing.delete(item);
    // Queued again even when shutting down, as client-go's Done: it was added before the shutdown,
    // and a worker still takes queued items (get() hands them out until the queue is empty).
    if (this.#dirty.has(item)) this.#enqueue(item);
    if (this.#processing.size === 0) for (const resolve of this.#drained.splice(0)) resolve();
  }

  /**
   * Takes no more items; workers still get those queued, then undefined (waiting ones at once).
   * Resolves, for every caller, when no item is in flight (client-go's ShutDownWithDrain).
   */
  shutDown(): Promise<void> {
    this.#shuttingDown = true;
    this.#metrics?.close();
    for (const { cancel } of this.#delayed.values()) cancel();
    this.#delayed.clear();
    for (const w of this.#waiters.splice(0)) w(undefined);
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => { this.#drained.push(resolve); });
  }
}
