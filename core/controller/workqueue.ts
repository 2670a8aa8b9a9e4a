// A work queue with client-go's guarantees: an item is never processed by two workers at once, an
// item added while it is being processed is processed again after done(), adding an item already
// waiting does nothing, and retries go through a rate limiter.
import type { RateLimiter } from './rate-limiters.js';

export class WorkQueue<K> {
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #waiters: ((k: K | undefined) => void)[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #shuttingDown = false;
  #drained: (() => void) | undefined;

  constructor(private readonly limiter: RateLimiter<K>) {}

  get length(): number { return this.#queue.length; }
  get shuttingDown(): boolean { return this.#shuttingDown; }

  add(item: K): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#dirty.add(item);
    if (this.#processing.has(item)) return;
    const waiter = this.#waiters.shift();
    if (waiter) { this.#dirty.delete(item); this.#processing.add(item); waiter(item); return; }
    this.#queue.push(item);
  }

  addAfter(item: K, delayMs: number): void {
    if (this.#shuttingDown) return;
    if (delayMs <= 0) { this.add(item); return; }
    const t = setTimeout(() => { this.#timers.delete(t); this.add(item); }, delayMs);
    this.#timers.add(t);
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
    if (item !== undefined) {
      this.#dirty.delete(item);
      this.#processing.add(item);
    }
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
    this.#processing.delete(item);
    if (this.#dirty.has(item) && !this.#shuttingDown) {
      this.#dirty.delete(item);
      this.add(item);
    }
    if (this.#processing.size === 0) this.#drained?.();
  }

  /** Stops handing out items; waiting workers get undefined. Resolves when in-flight items are done. */
  shutDown(): Promise<void> {
    this.#shuttingDown = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const w of this.#waiters.splice(0)) w(undefined);
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => { this.#drained = resolve; });
  }
}
