// LIST with the resourceVersion / resourceVersionMatch / paging rules of k8s-behaviour §8.4.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errors } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';
import { isStorageError, type KeyValue, type Storage } from '../storage/storage.js';
import { decodeContinue, encodeContinue, LATEST } from './continue-token.js';
import { parseResourceVersion, type ListOptions } from './list-options.js';
import { buildSelection } from './selection.js';
import type { ResourceStore } from './store.js';

export interface ListOutput {
  items: ApiObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

const LIST_TOO_OLD = 'The resourceVersion for the provided list is too old.';
const CONTINUE_TOO_OLD = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
const TOO_LARGE_WAIT_MS = 3000;
/**
 * A list without a limit is still read in pages of this many keys, one per turn of the event loop,
 * at the revision of the first: 12,000 CSRs read at once held every other request for ~0.5 s.
 */
export const READ_PAGE = 500;

/** Waits (up to 3 s, as the watch cache does) for the store to reach `rv`; 504 otherwise. */
export async function awaitRevision(storage: Storage, rv: number): Promise<void> {
  let current = await storage.currentRevision();
  if (rv <= current) return;
  const deadline = Date.now() + TOO_LARGE_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    current = await storage.currentRevision();
    if (rv <= current) return;
  }
  throw errors.tooLargeResourceVersion(rv, current);
}

/**
 * Every key under `prefix` at one revision, READ_PAGE a turn; returns that revision. Once `signal`
 * has aborted (the client gone) it reads no further page: what it returns then is incomplete.
 */
export async function readAllPaged(storage: Storage, prefix: string, each: (kv: KeyValue) => void, signal?: AbortSignal): Promise<number> {
  let revision: number | undefined;
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.list(prefix, {
      limit: READ_PAGE, ...(startAfter !== undefined ? { startAfter } : {}), ...(revision !== undefined ? { revision } : {}),
    });
    revision = page.revision;
    for (const kv of page.items) each(kv);
    if (!page.more) return revision;
    startAfter = page.items.at(-1)!.key;
    await nextTurn();
    if (signal?.aborted) return revision;
  }
}

export async function listObjects(store: ResourceStore, namespace: string, o: ListOptions): Promise<ListOutput> {
  const storage = store.storage;
  const selection = buildSelection(store.def, o.labelSelector, o.fieldSelector);
  const prefix = store.prefixFor(namespace);
  // As the cacher's shouldDelegateList: a resourceVersion=0 list without a continue token is served
  // whole from the watch cache, its limit ignored (no continue, no remainingItemCount).
  const limit = o.limit && o.limit > 0 && (o.continue || o.resourceVersion !== '0') ? o.limit : 0;
  const rv = parseResourceVersion(o.resourceVersion);

  let revision: number | undefined;
  let startAfter: string | undefined;
  /** Where the continue token resumed: a fresh token after a 410 must resume there too. */
  let tokenStart: string | undefined;
  if (o.continue) {
    const token = decodeContinue(o.continue);
    if (rv !== undefined && rv !== 0) throw errors.badRequest('specifying resource version is not allowed when using continue');
    if (token.revision > 0) revision = token.revision;
    startAfter = prefix + token.start.replace(/\u0000$/, '');
    tokenStart = token.start;
  } else if (rv !== undefined && rv > 0) {
    const exact = o.resourceVersionMatch === 'Exact' || (!o.resourceVersionMatch && limit > 0);
    if (exact) revision = rv;
    else await awaitRevision(storage, rv);
  }

  // A `metadata.name=` selector reads one key instead of the whole prefix. The revision is read
  // first: a write landing in between then shows in the object and again in a watch from that
  // revision, rather than being covered by the list's resourceVersion without being in the list
  // (which a list-then-watch client such as `kubectl wait` would never see). A list of a
  // namespaced resource across namespaces has no one key for a name: it reads the prefix.
  if (selection.name !== undefined && revision === undefined && !o.continue && (namespace || !store.namespaced)) {
    const current = await storage.currentRevision();
    const kv = await storage.get(prefix + selection.name);
    const obj = kv ? store.adopt(kv) : undefined;
    return { items: obj && selection.matches(obj) ? [obj] : [], resourceVersion: String(current) };
  }

  const items: ApiObject[] = [];
  let readAt = revision;
  let more = false;
  let remaining = 0;
  let lastKey: string | undefined;
  try {
    for (;;) {
      const want = limit ? limit - items.length : 0;
      const chunk = await storage.list(prefix, {
        limit: want ? (selection.empty ? want : Math.max(want, 100)) : READ_PAGE,
        ...(startAfter !== undefined ? { startAfter } : {}),
        ...(readAt !== undefined ? { revision: readAt } : {}),
      });
      readAt = chunk.revision;
      for (const kv of chunk.items) {
        const obj = store.adopt(kv);
        lastKey = kv.key;
        if (!selection.matches(obj)) continue;
        items.push(obj);
        if (limit && items.length === limit) break;
      }
      const stoppedEarly = limit > 0 && items.length === limit && lastKey !== chunk.items.at(-1)?.key;
      if (stoppedEarly || (limit > 0 && items.length === limit && chunk.more)) {
        more = true;
        remaining = stoppedEarly ? chunk.remaining + 1 : chunk.remaining;
        break;
      }
      if (!chunk.more) break;
      startAfter = chunk.items.at(-1)?.key;
      await nextTurn();
    }
  } catch (e) {
    if (isStorageError(e, 'Compacted')) {
      // Items read from earlier chunks of this request were never returned: resume at the
      // token's own start, not after the last chunk read.
      if (tokenStart !== undefined) throw errors.expired(CONTINUE_TOO_OLD, encodeContinue(LATEST, tokenStart));
      throw errors.expired(LIST_TOO_OLD);
    }
    if (isStorageError(e, 'FutureRevision')) throw errors.tooLargeResourceVersion(revision ?? 0, e.revision ?? 0);
    throw e;
  }
  const out: ListOutput = { items, resourceVersion: String(readAt ?? (await storage.currentRevision())) };
  if (more && lastKey !== undefined) {
    const last = items.at(-1)!;
    const lastItemKey = store.keyFor(last.metadata.namespace ?? '', last.metadata.name ?? '');
    out.continue = encodeContinue(readAt!, lastItemKey.slice(prefix.length) + '\u0000');
    if (selection.empty) out.remainingItemCount = remaining;
  }
  return out;
}
