// The one storage interface every engine implements (LMDB now, etcd later). Shaped after etcd v3:
// a global revision counter, per-key modification revisions, compare-and-swap writes, and a watch
// that can resume from any revision not yet compacted. Values are JSON-compatible objects; the
// engine owns their encoding. resourceVersion in the API is a key's modRevision.

export interface KeyValue {
  readonly key: string;
  readonly value: unknown;
  /** Revision of the write that created this key (unchanged by updates). */
  readonly createRevision: number;
  /** Revision of the last write to this key. */
  readonly modRevision: number;
  /**
   * Read with another encryption provider or key than writes use now (encrypting-storage.ts): an
   * update must write it even when the object is unchanged, as etcd3's GuaranteedUpdate does.
   */
  readonly stale?: boolean;
}

export interface ListOptions {
  /** At most this many items (0 or unset: all). */
  limit?: number;
  /** Start after this key (exclusive), as a continue token encodes it. */
  startAfter?: string;
  /**
   * Read the state exactly as it was at this revision (a consistent snapshot for paging and
   * resourceVersionMatch=Exact). Unset: the current state. Below the compacted revision:
   * StorageError 'Compacted'; above the current revision: StorageError 'FutureRevision'.
   */
  revision?: number;
}

export interface ListResult {
  readonly items: KeyValue[];
  /** The revision the list was read at. */
  readonly revision: number;
  /** True when `limit` cut the result short. */
  readonly more: boolean;
  /** How many matching keys follow the last returned item (only when `more`). */
  readonly remaining: number;
}

export type StorageEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StorageEvent {
  readonly type: StorageEventType;
  readonly key: string;
  /** New state; for DELETED the last state before deletion. */
  readonly value: unknown;
  /** State before this write (MODIFIED, DELETED). */
  readonly prevValue?: unknown;
  /** Revision of this write (for DELETED: the deletion's revision). */
  readonly revision: number;
  /**
   * About how much memory a watcher holding the event keeps alive: the length of its value's JSON
   * text and the previous state's. Set by the engine on the events it pushes live.
   */
  readonly size?: number;
}

export interface Watch extends AsyncIterable<StorageEvent> {
  /** Ends the iteration; pending next() calls resolve done. */
  close(): void;
  /**
   * A revision up to which this watch has delivered every event under its prefix: it follows
   * the store's revision while writes elsewhere go by, so a quiet watch can still report how far
   * it has come (a bookmark) and be resumed from there after older history is compacted.
   */
  readonly progress: number;
}

export interface WatchOptions {
  /** Deliver events with revision > fromRevision. Below the compacted revision: 'Compacted'. */
  fromRevision: number;
}

/**
 * Unresponsive: a watch ended because its consumer fell too far behind (it may watch again from where it was).
 * CommitFailed: the engine could not make a write durable (a full disk, an I/O error); nothing of it
 * is visible, and the store keeps serving reads and takes writes again once the cause is gone.
 * Corrupt: a stored record does not decode (its bytes were damaged on disk); the read that met it
 * fails, naming the key, as etcd3's store fails a decode error (a 500, not a crash).
 */
export type StorageErrorCode = 'NotFound' | 'KeyExists' | 'Conflict' | 'Compacted' | 'FutureRevision' | 'Closed' | 'Unresponsive' | 'CommitFailed' | 'Corrupt';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** Compacted: the compacted revision; FutureRevision: the current revision; Conflict: the key's current modRevision. */
    readonly revision?: number,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const isStorageError = (e: unknown, code?: StorageErrorCode): e is StorageError =>
  e instanceof StorageError && (code === undefined || e.code === code);

/**
 * A value for create or update already encoded as its JSON text: the engine stores the text as
 * given (the generic store encodes an object before validating admission sees it, see
 * core/registry/store.ts).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A value for create or update as the JSON text an engine stores. */
export function jsonText(value: unknown, key: string): string {
  const text = value instanceof JsonText ? value.text : JSON.stringify(value);
  if (text === undefined) throw new TypeError(`value for "${key}" is not JSON-serialisable`);
  return text;
}

/**
 * Values returned by get and list are the caller's own (fresh copies it may change); values of watch
 * events are shared by the watchers of a range and frozen, and so are those create, update and
 * delete return: each is its write's event value (one decode of the written text, not two).
 */
export interface Storage {
  /** Engine name, for logs and health checks ("lmdb", "etcd"). */
  readonly engine: string;
  /** The longest key (UTF-8 bytes) the engine stores, if it has a limit: the registry refuses a name that would need more. */
  readonly maxKeyBytes?: number | undefined;
  get(key: string): Promise<KeyValue | undefined>;
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Fails with KeyExists when the key is present. `value` may be a JsonText. */
  create(key: string, value: unknown): Promise<KeyValue>;
  /**
   * Compare-and-swap: writes only when the key's modRevision equals `expectedModRevision`.
   * NotFound when absent; Conflict (with the current modRevision) when it differs. `value` may be a JsonText.
   */
  update(key: string, value: unknown, expectedModRevision: number): Promise<KeyValue>;
  /** Deletes, optionally only at `expectedModRevision`; returns the last state with modRevision = the deletion's revision. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /** Events for keys under `prefix`, replayed from the log after fromRevision, then live. */
  watch(prefix: string, options: WatchOptions): Watch;
  /** Forgets history at and below `revision`: later watches or snapshot lists from there get Compacted. */
  compact(revision: number): Promise<void>;
  /** The current (latest committed) revision. */
  currentRevision(): Promise<number>;
  /** The highest revision whose history has been compacted away (0 when none). */
  compactedRevision(): Promise<number>;
  close(): Promise<void>;
}
