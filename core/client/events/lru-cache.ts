// The fixed-size LRU of golang/groupcache that client-go's event correlator keeps its records in
// (4096 entries): a get makes an entry the most recent, an add past the size drops the oldest.
export class LruCache<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError(`an LRU cache needs at least one entry (got ${maxEntries})`);
  }
  get size(): number { return this.#map.size; }
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }
  add(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.maxEntries) this.#map.delete(this.#map.keys().next().value as string);
  }
}
