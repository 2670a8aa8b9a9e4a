// WATCH: initial state (synthetic ADDED, or sendInitialEvents with the end-marker bookmark), then
// storage events filtered by the selection, with objects moving in or out of the selection turned
// into ADDED / DELETED as the watch cache does (k8s-behaviour §8.5, §8.6).
import { errors, StatusError } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';
import { isStorageError, type StorageEvent } from '../storage/storage.js';
import { TransformError } from '../storage/encryption/encrypting-storage.js';
import { awaitRevision, readAllPaged } from './list.js';
import { parseResourceVersion, type ListOptions } from './list-options.js';
import { initialObject } from './initial-objects.js';
import { buildSelection } from './selection.js';
import type { ResourceStore } from './store.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export interface WatchEvent { type: WatchEventType; object: ApiObject | StatusError; revision: number }

export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

export interface WatchStream extends AsyncIterable<WatchEvent> {
  close(): void;
  /**
   * The revision a bookmark may carry: everything up to it has been delivered, including writes
   * to other resources, so a quiet watch still advances (as the watch cache's bookmarks carry its
   * own revision) and its client resumes after compaction instead of re-listing on 410. Undefined
   * while initial events are still going out: a bookmark among them would skip the rest.
   */
  readonly revision: number | undefined;
  /** The revision the watch's events start after: a bookmark not past it tells the client nothing. */
  readonly from: number;
  /** Why the storage ended this watch when its client fell too far behind (undefined otherwise). */
  readonly unresponsive: string | undefined;
}

// Every watcher of a resource receives the same (frozen) storage event: the API object made of it
// is built once and shared too, read-only, as upstream's watch cache shares one cachingObject.
const converted = new WeakMap<StorageEvent, { value?: ApiObject; prevValue?: ApiObject }>();

function sharedObject(store: ResourceStore, ev: StorageEvent, which: 'value' | 'prevValue'): ApiObject | undefined {
  const raw = ev[which];
  if (raw === undefined) return undefined;
  let entry = converted.get(ev);
  if (!entry) { entry = {}; converted.set(ev, entry); }
  return (entry[which] ??= store.toSharedObject({ value: raw, modRevision: ev.revision }));
}

// The watch cache's "too old resource version: X (Y)": Y is the oldest version it accepts, which
// here is the compacted revision itself (only later events are needed).
async function tooOldError(storage: ResourceStore['storage'], from: number): Promise<StatusError> {
  return errors.expired(`too old resource version: ${from} (${await storage.compactedRevision()})`);
}

/** A watch whose only event is `error`, as the cacher's errWatcher. */
function errorStream(error: StatusError, revision: number): WatchStream {
  async function* events(): AsyncGenerator<WatchEvent> { yield { type: 'ERROR', object: error, revision }; }
  const gen = events();
  return {
    [Symbol.asyncIterator]: () => gen,
    close: () => { void gen.return(undefined); },
    revision: undefined,
    from: revision,
    unresponsive: undefined,
  };
}

/**
 * `signal`: the request's context. A client that goes away while the initial state is read stops
 * the reading (the caller then closes the stream unread), so it does not leave a watch holding a
 * copy of every object behind it.
 */
export async function watchObjects(store: ResourceStore, namespace: string, o: ListOptions, signal?: AbortSignal): Promise<WatchStream> {
  const storage = store.storage;
  const selection = buildSelection(store.def, o.labelSelector, o.fieldSelector);
  const prefix = store.prefixFor(namespace);
  const rv = parseResourceVersion(o.resourceVersion);
  const replayState = o.sendInitialEvents === true || (o.sendInitialEvents === undefined && (rv === undefined || rv === 0));

  const initial: ApiObject[] = [];
  let from: number;
  let tooOld: StatusError | undefined;
  let inner: ReturnType<typeof storage.watch> | undefined;
  if (replayState) {
    // Only a watch that asked for initial events waits for a future resourceVersion (the cacher's
    // waitUntilWatchCacheFreshAndForceAllEvents); past the wait the watch still opens, its only
    // event the 504 (newErrWatcher).
    if (rv !== undefined && rv > 0) {
      try {
        await awaitRevision(storage, rv);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        return errorStream(e, rv);
      }
    }
    from = await readAllPaged(storage, prefix, (kv) => {
      const obj = initialObject(store, kv);
      if (selection.matches(obj)) initial.push(obj);
    }, signal);
  } else if (rv === undefined || rv === 0) {
    // sendInitialEvents=false without a resourceVersion, or with 0 ("any"): changes from now on.
    from = await storage.currentRevision();
  } else {
    // A future resourceVersion opens at once: events arrive once the store passes it.
    from = rv;
  }

  try {
    const compacted = await storage.compactedRevision();
    if (from < compacted) throw new Error('compacted');
    inner = storage.watch(prefix, { fromRevision: from });
  } catch (e) {
    if (!(isStorageError(e, 'Compacted') || (e instanceof Error && e.message === 'compacted'))) throw e;
    tooOld = await tooOldError(storage, from);
  }

  let live = false;
  let closed = false;
  let unresponsive: string | undefined;
  const toEvent = (ev: StorageEvent): WatchEvent | undefined => {
    const obj = sharedObject(store, ev, 'value')!;
    const now = ev.type !== 'DELETED' && selection.matches(obj);
    // Without a selector every object matches: the previous state is not needed to decide.
    const prev = ev.type === 'MODIFIED' && selection.empty ? undefined : sharedObject(store, ev, 'prevValue');
    const before = prev !== undefined ? selection.matches(prev) : ev.type === 'MODIFIED' && selection.empty;
    if (ev.type === 'ADDED') return now ? { type: 'ADDED', object: obj, revision: ev.revision } : undefined;
    if (ev.type === 'DELETED') return selection.matches(obj) ? { type: 'DELETED', object: obj, revision: ev.revision } : undefined;
    if (now && before) return { type: 'MODIFIED', object: obj, revision: ev.revision };
    if (now) return { type: 'ADDED', object: obj, revision: ev.revision };
    // Leaving the selection: the previous (matching) content at this event's revision, as the
    // watch cache's convertToWatchEvent does, so a client filtering locally still sees it match.
    if (before && prev) return { type: 'DELETED', object: prev, revision: ev.revision };
    return undefined;
  };

  async function* events(): AsyncGenerator<WatchEvent> {
    for (const obj of initial) yield { type: 'ADDED', object: obj, revision: from };
    if (o.sendInitialEvents && o.allowWatchBookmarks) {
      yield {
        type: 'BOOKMARK', revision: from,
        object: { apiVersion: store.apiVersion, kind: store.def.kind, metadata: { resourceVersion: String(from), annotations: { [INITIAL_EVENTS_END]: 'true' } } },
      };
    }
    if (tooOld) { yield { type: 'ERROR', object: tooOld, revision: from }; return; }
    live = true;
    try {
      for await (const ev of inner!) {
        if (closed) return;
        const out = toEvent(ev);
        if (out) yield out;
      }
    } catch (e) {
      if (isStorageError(e, 'Compacted')) {
        yield { type: 'ERROR', object: await tooOldError(storage, from), revision: from };
        return;
      }
      if (isStorageError(e, 'Unresponsive')) { unresponsive = e.message; return; }
      if (isStorageError(e, 'Closed')) return;
      // An event no encryption provider can read: upstream's etcd watcher sends it as an
      // InternalError and ends, so the client lists again.
      if (e instanceof TransformError) {
        yield { type: 'ERROR', object: errors.internal(e), revision: from };
        return;
      }
      throw e;
    }
  }

  const gen = events();
  return {
    [Symbol.asyncIterator]: () => gen,
    close: () => { closed = true; inner?.close(); void gen.return(undefined); },
    get revision() { return live ? inner!.progress : undefined; },
    from,
    get unresponsive() { return unresponsive; },
  };
}
