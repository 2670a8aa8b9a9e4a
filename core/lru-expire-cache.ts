// Upstream's LRUExpireCache (k8s.io/utils/cache): a bounded map whose entries each carry their own
// expiry. Webhook and review answers are remembered with it: a reader gets nothing past the
// expiry, and a full cache drops the least recently used entry first, so a flood of distinct
// questions cannot grow memory.
export class LruExpireCache<V> {
  readonly #entries = new Map<string, { readonly expiresAt: number; readonly value: V }>();

  // Expiry is read on the monotonic clock (Go's time.Now carries its monotonic reading): a wall clock
  // stepped back must not keep a revoked answer for the length of the step.
  constructor(private readonly maxEntries: number, private readonly now: () => number = () => performance.now()) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  get size(): number { return this.#entries.size; }

  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    if (hit.expiresAt <= this.now()) return undefined;
    this.#entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { expiresAt: this.now() + ttlMs, value });
  }
}
