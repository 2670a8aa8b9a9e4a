// Encryption at rest as a Storage around the engine, upstream's etcd3 store transformer: each
// value is written with its resource's first provider and read with whichever provider's prefix
// matches it, the storage key being the authenticated data (upstream's etcd key). The engine, its
// object records and its event log hold only what the providers wrote; everything handed out,
// watch events included, is plaintext. A value no provider can read is an error (a 500 at the API,
// with upstream's text), never served as it is.
import { deepFreeze } from '../freeze.js';
import { goQuote } from '../../go-quote.js';
import {
  jsonText, type KeyValue, type ListOptions, type ListResult, type Storage, type StorageEvent, type Watch, type WatchOptions,
} from '../storage.js';
import type { ResourceTransformer } from './resource-transformers.js';
import type { RecordTransformation } from './transformer.js';

/** A stored value that cannot be read: not a StorageError, so the API answers it as upstream's InternalError. */
export class TransformError extends Error {
  override readonly name = 'TransformError';
}

/** The watch of the engine, its events read through `read`. */
class ReadingWatch implements Watch {
  constructor(private readonly inner: Watch, private readonly read: (e: StorageEvent) => StorageEvent) {}
  get progress(): number { return this.inner.progress; }
  close(): void { this.inner.close(); }
  async *[Symbol.asyncIterator](): AsyncGenerator<StorageEvent> {
    for await (const e of this.inner) yield this.read(e);
  }
}

export class EncryptingStorage implements Storage {
  /** The engine pushes one event object to every watcher of a range: each is read once. */
  readonly #events = new WeakMap<StorageEvent, StorageEvent>();

  /**
   * `transformerFor` is asked at every read and write: a reloaded configuration applies at once.
   * `record` counts each transformation (apiserver_storage_transformation_*).
   */
  constructor(private readonly inner: Storage, private readonly transformerFor: (key: string) => ResourceTransformer,
    private readonly record?: RecordTransformation) {}

  get engine(): string { return this.inner.engine; }
  get maxKeyBytes(): number | undefined { return this.inner.maxKeyBytes; }

  async get(key: string): Promise<KeyValue | undefined> {
    const kv = await this.inner.get(key);
    if (!kv) return undefined;
    const read = this.#readValue(kv.key, kv.value, false, '');
    return { ...kv, value: read.value, ...(read.stale ? { stale: true } : {}) };
  }

  async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const r = await this.inner.list(prefix, options);
    // Upstream's list names the key it could not read.
    return { ...r, items: r.items.map((kv) => ({ ...kv, value: this.#read(kv.key, kv.value, false, `unable to transform key ${goQuote(kv.key)}: `) })) };
  }

  create(key: string, value: unknown): Promise<KeyValue> {
    return this.#write(key, value, (v) => this.inner.create(key, v));
  }

  update(key: string, value: unknown, expectedModRevision: number): Promise<KeyValue> {
    return this.#write(key, value, (v) => this.inner.update(key, v, expectedModRevision));
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    const kv = await this.inner.delete(key, expectedModRevision);
    return { ...kv, value: this.#read(key, kv.value, true, '') };
  }

  watch(prefix: string, options: WatchOptions): Watch {
    return new ReadingWatch(this.inner.watch(prefix, options), (e) => this.#event(e));
  }

  compact(revision: number): Promise<void> { return this.inner.compact(revision); }
  currentRevision(): Promise<number> { return this.inner.currentRevision(); }
  compactedRevision(): Promise<number> { return this.inner.compactedRevision(); }
  close(): Promise<void> { return this.inner.close(); }

  /** Stores what the key's first provider makes of the value; the answer holds the plaintext. */
  async #write(key: string, value: unknown, put: (stored: unknown) => Promise<KeyValue>): Promise<KeyValue> {
    const text = jsonText(value, key);
    const stored = this.transformerFor(key).write(text, Buffer.from(key, 'utf8'), this.record);
    if (stored === undefined) return put(value);
    const kv = await put(stored);
    return { ...kv, value: deepFreeze(JSON.parse(text)) };
  }

  #read(key: string, stored: unknown, freeze: boolean, context: string): unknown {
    return this.#readValue(key, stored, freeze, context).value;
  }

  #readValue(key: string, stored: unknown, freeze: boolean, context: string): { value: unknown; stale: boolean } {
    let text: string;
    let stale: boolean;
    try {
      const r = this.transformerFor(key).read(stored, Buffer.from(key, 'utf8'), this.record);
      if ('plain' in r) return { value: r.plain, stale: r.stale };
      text = r.text;
      stale = r.stale;
    } catch (e) {
      throw new TransformError(`${context}${(e as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      // aescbc authenticates nothing: a changed value can decrypt, with a valid padding, to garbage.
      throw new TransformError(`${context}decrypted value is not JSON: ${(e as Error).message}`);
    }
    return { value: freeze ? deepFreeze(value) : value, stale };
  }

  #event(e: StorageEvent): StorageEvent {
    let out = this.#events.get(e);
    if (out) return out;
    const value = this.#read(e.key, e.value, true, '');
    const base = { type: e.type, key: e.key, value, revision: e.revision };
    if (e.type === 'ADDED') out = base;
    else if (e.type === 'DELETED') out = { ...base, prevValue: value };
    else {
      // The engine parses a previous state only when asked (watchers with a selector): so here.
      let prev: unknown;
      const read = () => this.#read(e.key, e.prevValue, true, '');
      out = { ...base, get prevValue() { return (prev ??= read()); } };
    }
    this.#events.set(e, out);
    return out;
  }
}
