// The embedded storage engine: etcd-like revisions on one LMDB environment. The only module that
// imports 'lmdb' (lmdb-snapshot.ts reads a snapshot file through loadLmdb).
//
// Layout (sub-databases of one environment, all JSON-encoded values):
//   objects  key -> { value, createRevision, modRevision }
//   events   revision -> the write at that revision (the watch-resume and snapshot log)
//   meta     currentRevision, compactedRevision
//
// Every write is one child transaction inside lmdb-js's batched write transaction: it checks its
// precondition, takes the next revision, and writes object, event and counter together. A failed
// precondition throws out of the child transaction, which rolls back only that write (a plain
// lmdb-js `transaction` would keep whatever it had put before the throw). A batch whose commit
// fails (a full disk) fails each of its writes with CommitFailed and publishes nothing; the store
// stays open for reads, and writes succeed again once there is room. The write's promise
// resolves after the batch is committed and synced (overlappingSync off: lmdb-js would otherwise
// resolve on commit and sync later), and only then is the event fanned out to watchers, strictly
// in revision order.
//
// Decisions the Storage interface leaves to the engine:
// - watch errors (Compacted, Closed) surface on the iterator's first next(), never from watch();
//   watch() itself throws only RangeError/TypeError for bad arguments.
// - a live watcher more than `watchBufferLimit` (default 10000) events, or `watchBufferBytes`
//   (default 64 MiB of the events' JSON), behind is terminated: its next next() rejects with
//   StorageError 'Unresponsive' (see log-watch.ts).
// - compact(r) with r above the current revision fails with FutureRevision (as etcd does); r at or
//   below the compacted revision is a no-op, so the compacted revision never goes backwards.
// - list({ revision }) serves any revision >= the compacted one: compacting at r removes the log
//   entries at and below r, and a snapshot at r needs only those after it.
import fs from 'node:fs';
import path from 'node:path';
import type { Database, RootDatabase, Transaction } from 'lmdb';
import { silentLogger, type Logger } from '../log.js';
import { committed } from './commit-failure.js';
import { acquireDirLock, type DirLock } from './dir-lock.js';
import { lmdbOpeners } from './lmdb-openers.js';
import { checkLmdbFile, checkStoreKeys, markInitialised } from './lmdb-file.js';
import { makeFilesPrivate, warnIfDirNotPrivate } from './private-files.js';
import { deepFreeze } from './freeze.js';
import { LogWatch, type LogPage, type LogSource } from './log-watch.js';
import {
  jsonText, StorageError,
  type KeyValue, type ListOptions, type ListResult, type Storage, type StorageEvent,
  type StorageEventType, type WatchOptions,
} from './storage.js';

export interface LmdbStorageOptions {
  /** Data directory; created with mode 0700 if missing (an existing one of another mode is warned about). Its files are made 0600. */
  path: string;
  logger?: Logger;
  /** Initial LMDB map size in bytes (lmdb-js grows it as needed). */
  mapSize?: number;
  /** Events a live watcher may have undelivered before it is terminated (default 10000). */
  watchBufferLimit?: number;
  /** Bytes of events (their JSON text) a live watcher may have undelivered before it is terminated (default 64 MiB). */
  watchBufferBytes?: number;
}

/** The LMDB engine's own operations beside Storage: what `plat snapshot` needs of it. */
export interface LmdbStore extends Storage {
  /**
   * A consistent copy of the whole environment at `file` (mdb_env_copy2, one read transaction:
   * writes go on meanwhile); `compact` leaves free pages out, so the copy is also a defragmented store.
   */
  backup(file: string, compact: boolean): Promise<void>;
  /**
   * etcdutl snapshot restore's --bump-revision N --mark-compacted: the revision counter moves N
   * past the current one and, when asked, history up to the new revision is compacted, so every
   * watch or exact list from an older revision is Compacted (410) and clients list afresh. For a
   * store nothing else writes to (a restore before the server starts). Returns the new revision.
   */
  bumpRevision(by: number, markCompacted: boolean): Promise<number>;
}

interface StoredObject {
  value: unknown;
  createRevision: number;
  modRevision: number;
}

// DELETED stores the last state once, as `value`; its prevValue is the same state.
interface LoggedEvent {
  type: StorageEventType;
  key: string;
  value: unknown;
  prevValue?: unknown;
  /** The key's createRevision (unchanged by updates and the delete). */
  createRevision: number;
  /** The key's modRevision before this write (MODIFIED, DELETED). */
  prevModRevision?: number;
}

const CURRENT = 'currentRevision';
const COMPACTED = 'compactedRevision';
/** The meta database's keys of the revision counters (lmdb-snapshot.ts reads them from a copy). */
export const META_KEYS = { current: CURRENT, compacted: COMPACTED } as const;
const DATA_FILE = 'data.mdb';

/** Throws when another process has the store open though it holds no lock file (one removed by hand). */
function refuseOpenElsewhere(dataFile: string, lockFile: string): void {
  const [pid] = lmdbOpeners(`${dataFile}-lock`);
  if (pid === undefined) return;
  throw new Error(`storage directory ${path.dirname(dataFile)} is in use by ${pid === 0 ? 'a process of another pid namespace' : `process ${pid}`}: it has ${dataFile} open without the lock file ${lockFile}`);
}
const REPLAY_PAGE = 256;
const DEFAULT_WATCH_BUFFER_LIMIT = 10_000;
/** Far above a burst of small objects (10,000 CSRs are ~25 MB), far below a heap's limit. */
const DEFAULT_WATCH_BUFFER_BYTES = 64 * 1024 * 1024;

function checkKey(key: unknown, what = 'key'): asserts key is string {
  if (typeof key !== 'string') throw new TypeError(`${what} must be a string`);
}

/**
 * lmdb-js's largest key: its default maxKeySize, in UTF-8 bytes of a string key. Longer ones
 * cannot be stored, so they name nothing (a read finds nothing; the registry refuses to create one).
 */
export const MAX_KEY_BYTES = 1978;
const keyFits = (key: string): boolean => key.length <= MAX_KEY_BYTES / 3 || Buffer.byteLength(key) <= MAX_KEY_BYTES;

function checkRevision(revision: unknown, what: string): asserts revision is number {
  if (typeof revision !== 'number') throw new TypeError(`${what} must be a number`);
  if (!Number.isSafeInteger(revision) || revision < 0) throw new RangeError(`${what} must be a non-negative integer`);
}

// Values are JSON documents. A write encodes its value once (jsonText): that text goes into the
// object record and the event record as they are (written as raw bytes, byte for byte what the
// 'json' encoding would write, so either reads them). What a write hands out is parsed from it
// once, frozen, and is both its watch event's value and its answer: exactly what a later get
// returns, and no caller can change what the watchers see.

// lmdb (its native addon and msgpackr) is imported by the first open, not with this module: the
// API server's --help, a flag error or a refused config never opens a store. Set before any
// storage exists, so the storage's own functions below read it as loaded.
let lmdb: typeof import('lmdb');
const compareKeys = (a: string, b: string): number => lmdb.compareKeys(a, b);

/** Pre-encoded JSON text as a record of type T: lmdb-js writes a Binary's bytes as they are, whatever the database's encoding. */
function encoded<T>(text: string): T {
  return lmdb.asBinary(Buffer.from(text, 'utf8')) as unknown as T;
}

const RECORD_HEAD = '{"value":';
const RECORD_TAIL = ',"createRevision":';
const RECORD_TAIL_RE = /^,"createRevision":(\d+),"modRevision":(\d+)\}$/;

/** The object record as the 'json' encoding writes { value, createRevision, modRevision }. */
function objectRecord(valueText: string, createRevision: number, modRevision: number): string {
  return `${RECORD_HEAD}${valueText}${RECORD_TAIL}${createRevision},"modRevision":${modRevision}}`;
}

/** A LoggedEvent as the 'json' encoding writes it (its fields in declaration order), values given as JSON text. */
function eventRecord(type: StorageEventType, key: string, valueText: string, createRevision: number,
  prev?: { readonly valueText?: string; readonly modRevision: number }): string {
  const prevValue = prev?.valueText === undefined ? '' : `,"prevValue":${prev.valueText}`;
  const prevModRevision = prev === undefined ? '' : `,"prevModRevision":${prev.modRevision}`;
  return `{"type":"${type}","key":${JSON.stringify(key)},"value":${valueText}${prevValue},"createRevision":${createRevision}${prevModRevision}}`;
}

interface StoredText {
  readonly valueText: string;
  readonly createRevision: number;
  readonly modRevision: number;
}

/**
 * An object record's value as text without parsing it: the record is `{"value":V,"createRevision":C,
 * "modRevision":M}`, and the last `,"createRevision":` outside V is the one after it (inside a string
 * of V the quotes would be escaped; a nested key of V comes before it). Anything else is parsed.
 */
function splitRecord(text: string): StoredText {
  const at = text.lastIndexOf(RECORD_TAIL);
  if (text.startsWith(RECORD_HEAD) && at > RECORD_HEAD.length) {
    const tail = RECORD_TAIL_RE.exec(text.slice(at));
    if (tail) return { valueText: text.slice(RECORD_HEAD.length, at), createRevision: Number(tail[1]), modRevision: Number(tail[2]) };
  }
  const o = JSON.parse(text) as StoredObject;
  return { valueText: JSON.stringify(o.value), createRevision: o.createRevision, modRevision: o.modRevision };
}

function toEvent(revision: number, e: LoggedEvent): StorageEvent {
  const base = { type: e.type, key: e.key, value: e.value, revision };
  if (e.type === 'ADDED') return base;
  return { ...base, prevValue: e.type === 'DELETED' ? e.value : e.prevValue };
}

/** The key's state just before `e` was written, or null when `e` created it. */
function stateBefore(e: LoggedEvent): StoredObject | null {
  if (e.type === 'ADDED' || e.prevModRevision === undefined) return null;
  const value = e.type === 'DELETED' ? e.value : e.prevValue;
  return { value, createRevision: e.createRevision, modRevision: e.prevModRevision };
}

class LmdbStorage implements LmdbStore, LogSource {
  readonly engine = 'lmdb';
  readonly maxKeyBytes = MAX_KEY_BYTES;
  #closing: Promise<void> | undefined;
  /** Highest revision fanned out to watchers; commits can resolve out of order, events cannot. */
  #published: number;
  readonly #committed = new Map<number, StorageEvent>();
  readonly #watchers = new Set<LogWatch>();
  /** Copies under way: LMDB's copy thread reads the map, which closing the environment unmaps (SIGSEGV). */
  readonly #backups = new Set<Promise<void>>();

  constructor(
    private readonly root: RootDatabase,
    private readonly dataFile: string,
    private readonly objects: Database<StoredObject, string>,
    private readonly events: Database<LoggedEvent, number>,
    private readonly meta: Database<number, string>,
    private readonly lock: DirLock,
    private readonly logger: Logger,
    private readonly watchBufferLimit: number,
    private readonly watchBufferBytes: number,
  ) {
    this.#published = this.#counter(CURRENT);
  }

  async get(key: string): Promise<KeyValue | undefined> {
    checkKey(key);
    this.#checkOpen(key);
    if (!keyFits(key)) return undefined;
    const o = this.#object(key);
    return o && { key, value: o.value, createRevision: o.createRevision, modRevision: o.modRevision };
  }

  /** One stored object; a record that does not decode is the read's StorageError, not a crash. */
  #object(key: string, transaction?: Transaction): StoredObject | undefined {
    try {
      return transaction ? this.objects.get(key, { transaction }) : this.objects.get(key);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      this.logger.error('stored object does not decode', { key, err: e.message });
      throw new StorageError('Corrupt', key, `unable to decode the stored object at key ${JSON.stringify(key)}: ${e.message}`);
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    checkKey(prefix, 'prefix');
    const { limit = 0, startAfter, revision } = options;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('limit must be a non-negative integer');
    if (startAfter !== undefined) checkKey(startAfter, 'startAfter');
    if (revision !== undefined) checkRevision(revision, 'revision');
    this.#checkOpen(prefix);

    const transaction = this.root.useReadTransaction();
    try {
      const current = this.#counter(CURRENT, transaction);
      let at = current;
      if (revision !== undefined) {
        if (revision > current) {
          throw new StorageError('FutureRevision', prefix, `revision ${revision} is newer than the current revision ${current}`, current);
        }
        const compacted = this.#counter(COMPACTED, transaction);
        if (revision < compacted) {
          throw new StorageError('Compacted', prefix, `revision ${revision} has been compacted (compacted revision ${compacted})`, compacted);
        }
        at = revision;
      }
      const after = (key: string) => key.startsWith(prefix) && (startAfter === undefined || compareKeys(key, startAfter) > 0);

      // Keys written after `at` take their state from the log; every other key is unchanged since.
      const past = new Map<string, StoredObject | null>();
      if (at < current) {
        for (const { value: e } of this.events.getRange({ start: at + 1, end: current + 1, transaction })) {
          if (after(e.key) && !past.has(e.key)) past.set(e.key, stateBefore(e));
        }
      }
      const start = startAfter !== undefined && compareKeys(startAfter, prefix) > 0 ? startAfter : prefix;
      // A page reads one key more than it returns (then there is more); the keys after that are
      // only counted, natively: paging through a range must not read all of what is left each time.
      const cap = limit > 0 ? limit + 1 : Infinity;
      const keys: string[] = [];
      let last: string | undefined;
      for (const key of this.objects.getKeys({ start, transaction })) {
        if (!key.startsWith(prefix)) break;
        if (after(key) && !past.has(key)) {
          keys.push(key);
          if (keys.length === cap) { last = key; break; }
        }
      }
      const uncounted = last === undefined ? 0 : this.#countAfter(prefix, last, past, transaction);
      const restored = [...past].filter(([, o]) => o !== null).map(([key]) => key);
      if (restored.length > 0) {
        keys.push(...restored);
        keys.sort(compareKeys);
      }

      const page = limit > 0 ? keys.slice(0, limit) : keys;
      const items = page.map((key): KeyValue => {
        const o = past.has(key) ? past.get(key) : this.#object(key, transaction);
        if (!o) throw new Error(`lmdb storage: key "${key}" vanished inside a read transaction`);
        return { key, value: o.value, createRevision: o.createRevision, modRevision: o.modRevision };
      });
      const more = page.length < keys.length;
      return { items, revision: at, more, remaining: keys.length - page.length + uncounted };
    } finally {
      transaction.done();
    }
  }

  /** Current keys under `prefix` after `last` that a list reads from the current state (not from `past`). */
  #countAfter(prefix: string, last: string, past: ReadonlyMap<string, unknown>, transaction: Transaction): number {
    // The first string after every one that starts with the prefix (none for the empty prefix).
    const end = prefix ? prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1) : undefined;
    let n = this.objects.getKeysCount({ start: last, ...(end !== undefined ? { end } : {}), exclusiveStart: true, transaction });
    for (const key of past.keys()) {
      if (compareKeys(key, last) > 0 && key.startsWith(prefix)) {
        n -= this.objects.getKeysCount({ start: key, end: key, inclusiveEnd: true, transaction });
      }
    }
    return n;
  }

  async create(key: string, value: unknown): Promise<KeyValue> {
    checkKey(key);
    this.#checkOpen(key);
    const text = jsonText(value, key);
    const revision = await this.#write(() => {
      if (this.objects.doesExist(key)) throw new StorageError('KeyExists', key, `key "${key}" already exists`);
      const rev = this.#nextRevision();
      this.objects.put(key, encoded<StoredObject>(objectRecord(text, rev, rev)));
      this.events.put(rev, encoded<LoggedEvent>(eventRecord('ADDED', key, text, rev)));
      return rev;
    });
    const written = deepFreeze(JSON.parse(text));
    this.#publish({ type: 'ADDED', key, value: written, revision, size: text.length });
    return { key, value: written, createRevision: revision, modRevision: revision };
  }

  async update(key: string, value: unknown, expectedModRevision: number): Promise<KeyValue> {
    checkKey(key);
    checkRevision(expectedModRevision, 'expectedModRevision');
    this.#checkOpen(key);
    const text = jsonText(value, key);
    const { rev, prev } = await this.#write(() => {
      const prev = this.#expect(key, expectedModRevision);
      const rev = this.#nextRevision();
      this.objects.put(key, encoded<StoredObject>(objectRecord(text, prev.createRevision, rev)));
      this.events.put(rev, encoded<LoggedEvent>(eventRecord('MODIFIED', key, text, prev.createRevision, prev)));
      return { rev, prev };
    });
    // Only watchers with a selector read the previous state: it is parsed the first time one does.
    let prevValue: unknown;
    const written = deepFreeze(JSON.parse(text));
    this.#publish({
      type: 'MODIFIED', key, value: written, revision: rev, size: text.length + prev.valueText.length,
      get prevValue() { return (prevValue ??= deepFreeze(JSON.parse(prev.valueText))); },
    });
    return { key, value: written, createRevision: prev.createRevision, modRevision: rev };
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    checkKey(key);
    if (expectedModRevision !== undefined) checkRevision(expectedModRevision, 'expectedModRevision');
    this.#checkOpen(key);
    const { rev, prev } = await this.#write(() => {
      const prev = this.#expect(key, expectedModRevision);
      const rev = this.#nextRevision();
      this.objects.remove(key);
      this.events.put(rev, encoded<LoggedEvent>(eventRecord('DELETED', key, prev.valueText, prev.createRevision, { modRevision: prev.modRevision })));
      return { rev, prev };
    });
    const last = deepFreeze(JSON.parse(prev.valueText));
    this.#publish({ type: 'DELETED', key, value: last, prevValue: last, revision: rev, size: prev.valueText.length });
    return { key, value: last, createRevision: prev.createRevision, modRevision: rev };
  }

  watch(prefix: string, options: WatchOptions): LogWatch {
    checkKey(prefix, 'prefix');
    checkRevision(options.fromRevision, 'fromRevision');
    if (this.#closing) {
      return new LogWatch(prefix, options.fromRevision, this, this.watchBufferLimit, this.#closedError(prefix), this.watchBufferBytes);
    }
    // Registered before any log read: see log-watch.ts for why that leaves no gap.
    const watch = new LogWatch(prefix, options.fromRevision, this, this.watchBufferLimit, undefined, this.watchBufferBytes);
    this.#watchers.add(watch);
    return watch;
  }

  async compact(revision: number): Promise<void> {
    checkRevision(revision, 'revision');
    this.#checkOpen('');
    const removed = await this.#write(() => {
      const current = this.#counter(CURRENT);
      const compacted = this.#counter(COMPACTED);
      if (revision > current) {
        throw new StorageError('FutureRevision', '', `cannot compact at ${revision}: the current revision is ${current}`, current);
      }
      if (revision <= compacted) return 0;
      // Collected first: removing under a live cursor would skip entries.
      const revisions = [...this.events.getKeys({ start: compacted + 1, end: revision + 1 })];
      for (const rev of revisions) this.events.remove(rev);
      this.meta.put(COMPACTED, revision);
      return revisions.length;
    });
    if (removed > 0) this.logger.v(2).info('compacted storage', { revision, events: removed });
  }

  async backup(file: string, compact: boolean): Promise<void> {
    this.#checkOpen('');
    const copy = this.root.backup(file, compact);
    this.#backups.add(copy);
    try {
      await copy;
    } finally {
      this.#backups.delete(copy);
    }
  }

  async bumpRevision(by: number, markCompacted: boolean): Promise<number> {
    checkRevision(by, 'by');
    this.#checkOpen('');
    const revision = await this.#write(() => {
      const rev = this.#counter(CURRENT) + by;
      this.meta.put(CURRENT, rev);
      return rev;
    });
    // The skipped revisions have no event: the next write's (revision + 1) is the next published.
    this.#published = Math.max(this.#published, revision);
    if (markCompacted) await this.compact(revision);
    this.logger.info('bumped storage revision', { by, revision, compacted: markCompacted ? revision : this.#counter(COMPACTED) });
    return revision;
  }

  async currentRevision(): Promise<number> {
    this.#checkOpen('');
    return this.#counter(CURRENT);
  }

  async compactedRevision(): Promise<number> {
    this.#checkOpen('');
    return this.#counter(COMPACTED);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const watch of [...this.#watchers]) watch.end();
      this.#watchers.clear();
      try {
        await Promise.allSettled([...this.#backups]);
        // Waits for writes already queued; new ones are refused by #checkOpen.
        await this.root.close();
      } finally {
        this.lock.release();
      }
    })();
    return this.#closing;
  }

  /** LogSource: one page of the event log, read in a single snapshot. */
  readPage(prefix: string, after: number): LogPage {
    if (this.#closing) throw this.#closedError(prefix);
    for (;;) {
      const transaction = this.root.useReadTransaction();
      try {
        const current = this.#counter(CURRENT, transaction);
        const compacted = this.#counter(COMPACTED, transaction);
        if (after < compacted) {
          throw new StorageError('Compacted', prefix, `watch from revision ${after}: history up to ${compacted} has been compacted`, compacted);
        }
        const events: StorageEvent[] = [];
        let through = after;
        let read = 0;
        for (const { key: rev, value: e } of this.events.getRange({ start: after + 1, end: current + 1, limit: REPLAY_PAGE, transaction })) {
          read++;
          through = rev;
          if (e.key.startsWith(prefix)) events.push(toEvent(rev, e));
        }
        if (read === REPLAY_PAGE && through < current) return { events, through, complete: false };
        // Going live requires a snapshot that has every event already pushed to watchers; the
        // implicit read snapshot can lag a commit whose promise has resolved, so renew and retry.
        if (current >= this.#published) return { events, through: Math.max(after, current), complete: true };
      } finally {
        transaction.done();
      }
      this.root.resetReadTxn();
    }
  }

  detach(watch: LogWatch): void {
    this.#watchers.delete(watch);
  }

  #publish(event: StorageEvent): void {
    this.#committed.set(event.revision, event);
    for (let next = this.#committed.get(this.#published + 1); next; next = this.#committed.get(this.#published + 1)) {
      this.#committed.delete(next.revision);
      this.#published = next.revision;
      for (const watch of [...this.#watchers]) watch.push(next);
    }
  }

  /**
   * Runs `body` as one child transaction of lmdb-js's batch. When the batch's commit fails, the
   * write rejects with CommitFailed and nothing is published: the next write reads the counters
   * as last committed and takes the revision the failed one had taken.
   */
  #write<T>(body: () => T): Promise<T> {
    return committed(this.root.childTransaction(body), this.dataFile);
  }

  /** Inside a write transaction: the key's state (its value as stored text), if it satisfies the precondition. */
  #expect(key: string, expectedModRevision: number | undefined): StoredText {
    const bytes = keyFits(key) ? this.objects.getBinaryFast(key) : undefined;
    if (!bytes) throw new StorageError('NotFound', key, `key "${key}" not found`);
    const prev = splitRecord(bytes.toString('utf8'));
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw new StorageError(
        'Conflict', key,
        `key "${key}" is at revision ${prev.modRevision}, not the expected ${expectedModRevision}`,
        prev.modRevision,
      );
    }
    return prev;
  }

  /** Inside a write transaction: takes the next global revision. */
  #nextRevision(): number {
    const rev = this.#counter(CURRENT) + 1;
    this.meta.put(CURRENT, rev);
    return rev;
  }

  #counter(name: string, transaction?: Transaction): number {
    return (transaction ? this.meta.get(name, { transaction }) : this.meta.get(name)) ?? 0;
  }

  #checkOpen(key: string): void {
    if (this.#closing) throw this.#closedError(key);
  }

  #closedError(key: string): StorageError {
    return new StorageError('Closed', key, 'storage is closed');
  }
}

/** lmdb-js, imported once, on first use. */
export async function loadLmdb(): Promise<typeof import('lmdb')> {
  lmdb ??= await import('lmdb');
  return lmdb;
}

/** Opens (creating if needed) the LMDB data directory at `options.path`, refusing one held by another live process. */
export async function openLmdbStorage(options: LmdbStorageOptions): Promise<LmdbStore> {
  await loadLmdb();
  const logger = options.logger ?? silentLogger;
  const watchBufferLimit = options.watchBufferLimit ?? DEFAULT_WATCH_BUFFER_LIMIT;
  if (!Number.isSafeInteger(watchBufferLimit) || watchBufferLimit < 1) throw new RangeError('watchBufferLimit must be a positive integer');
  const watchBufferBytes = options.watchBufferBytes ?? DEFAULT_WATCH_BUFFER_BYTES;
  if (!(watchBufferBytes > 0)) throw new RangeError('watchBufferBytes must be positive');
  warnIfDirNotPrivate(path.resolve(options.path), logger);
  const lock = acquireDirLock(options.path, logger);
  const dataFile = path.join(path.resolve(options.path), DATA_FILE);
  try {
    refuseOpenElsewhere(dataFile, lock.file);
    checkLmdbFile(dataFile);
    // A new store's files are made 0600 before LMDB creates them; a file already there is narrowed
    // only once it is known to be a store (checkStoreKeys), not another program's.
    const found = fs.existsSync(dataFile) && fs.statSync(dataFile).size > 0;
    if (!found) makeFilesPrivate([dataFile, `${dataFile}-lock`], logger);
    const root = lmdb.open({
      path: dataFile,
      compression: false,
      overlappingSync: false,
      // An event-turn batch opens with a write of lmdb-js's own whose promise nobody holds: a
      // failed commit (a full disk) rejects it unhandled and ends the process. Without it, every
      // promise of a batch belongs to a write awaited here (see commit-failure.ts).
      eventTurnBatching: false,
      ...(options.mapSize !== undefined ? { mapSize: options.mapSize } : {}),
    });
    try {
      checkStoreKeys(dataFile, root.getKeys());
    } catch (e) {
      await root.close();
      throw e;
    }
    if (found) makeFilesPrivate([dataFile, `${dataFile}-lock`], logger);
    const storage = new LmdbStorage(
      root, dataFile,
      root.openDB<StoredObject, string>({ name: 'objects', encoding: 'json' }),
      root.openDB<LoggedEvent, number>({ name: 'events', encoding: 'json' }),
      root.openDB<number, string>({ name: 'meta', encoding: 'json' }),
      lock, logger, watchBufferLimit, watchBufferBytes,
    );
    markInitialised(dataFile, logger);
    logger.info('opened storage', {
      engine: 'lmdb', path: options.path,
      revision: await storage.currentRevision(), compacted: await storage.compactedRevision(),
    });
    return storage;
  } catch (e) {
    lock.release();
    throw e;
  }
}
