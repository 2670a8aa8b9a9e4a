// Another served version of objects a resource already stores (upstream: one storage, several
// served versions; events.k8s.io/v1 Events are the core/v1 Events' records). The view's store reads
// and writes through this wrapper: every value crosses `fromStored` on the way up and `toStored` on
// the way down, so the records stay in the stored version whichever version wrote them. Revisions,
// keys, compaction and the engine's limits are the inner storage's own.
import { deepFreeze } from './freeze.js';
import { JsonText, type KeyValue, type ListOptions, type ListResult, type Storage, type StorageEvent, type Watch, type WatchOptions } from './storage.js';

export interface StorageConversion {
  /** A stored value as the view serves it; its own object (the input may be frozen). */
  fromStored(value: unknown): unknown;
  /** A view's value as it is stored; its own object. */
  toStored(value: unknown): unknown;
}

export class ConvertingStorage implements Storage {
  /** One converted value per frozen stored value: watchers of a range share an event's value, and so its conversion. */
  readonly #frozen = new WeakMap<object, unknown>();

  constructor(readonly inner: Storage, readonly conversion: StorageConversion) {}

  get engine(): string { return this.inner.engine; }
  get maxKeyBytes(): number | undefined { return this.inner.maxKeyBytes; }

  /** A value the caller owns (get, list): converted afresh. */
  #own(kv: KeyValue): KeyValue {
    return { ...kv, value: this.conversion.fromStored(kv.value) };
  }

  #sharedValue(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    let out = this.#frozen.get(value);
    if (out === undefined) {
      out = deepFreeze(this.conversion.fromStored(value));
      this.#frozen.set(value, out);
    }
    return out;
  }

  /** A write's answer or a watch event's value: frozen, as the inner storage's. */
  #shared(kv: KeyValue): KeyValue {
    return { ...kv, value: this.#sharedValue(kv.value) };
  }

  #down(value: unknown): unknown {
    if (value instanceof JsonText) return new JsonText(JSON.stringify(this.conversion.toStored(JSON.parse(value.text))));
    return this.conversion.toStored(value);
  }

  async get(key: string): Promise<KeyValue | undefined> {
    const kv = await this.inner.get(key);
    return kv && this.#own(kv);
  }

  async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const r = await this.inner.list(prefix, options);
    return { ...r, items: r.items.map((kv) => this.#own(kv)) };
  }

  async create(key: string, value: unknown): Promise<KeyValue> {
    return this.#shared(await this.inner.create(key, this.#down(value)));
  }

  async update(key: string, value: unknown, expectedModRevision: number): Promise<KeyValue> {
    return this.#shared(await this.inner.update(key, this.#down(value), expectedModRevision));
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    return this.#shared(await this.inner.delete(key, expectedModRevision));
  }

  watch(prefix: string, options: WatchOptions): Watch {
    const inner = this.inner.watch(prefix, options);
    const convert = (ev: StorageEvent): StorageEvent => ({
      ...ev, value: this.#sharedValue(ev.value),
      ...(ev.prevValue !== undefined ? { prevValue: this.#sharedValue(ev.prevValue) } : {}),
    });
    return {
      close: () => inner.close(),
      get progress() { return inner.progress; },
      [Symbol.asyncIterator]: () => {
        const it = inner[Symbol.asyncIterator]();
        return {
          next: async () => {
            const r = await it.next();
            return r.done ? r : { done: false, value: convert(r.value) };
          },
          return: async (v?: unknown) => (it.return ? it.return(v) : { done: true as const, value: undefined }),
        };
      },
    };
  }

  compact(revision: number): Promise<void> { return this.inner.compact(revision); }
  currentRevision(): Promise<number> { return this.inner.currentRevision(); }
  compactedRevision(): Promise<number> { return this.inner.compactedRevision(); }
  /** The inner storage belongs to whoever opened it. */
  async close(): Promise<void> {}
}
