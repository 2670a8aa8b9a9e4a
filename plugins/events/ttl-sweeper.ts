// --event-ttl: an Event goes away this long after its last write. Upstream attaches an etcd lease of
// that TTL to every create and update of an Event; LMDB has no TTL, so this sweeper keeps the
// expiry of each stored Event (from a watch of the events prefix: the time the write was seen)
// and deletes expired ones straight from storage, as a lease's expiry does (no admission, no
// finalizers; a watcher sees DELETED). The delete names the revision the expiry belongs to, so an
// Event written again meanwhile stays. Each pass deletes at most `batch` Events; a full pass is
// followed by another at once, so a backlog drains without holding the event loop.
// After a restart the writes before it were not seen: an Event's last write is then read from the
// object, the latest of its creationTimestamp and managedFields times (both server-set), no later
// than now (now itself when it has no managedFields time); one whose TTL passed while the server
// was down goes at start, in passes one after another.
import type { ObjectMeta } from '../../core/api/meta.js';
import type { Logger } from '../../core/log.js';
import { isStorageError, type Storage, type Watch } from '../../core/storage/storage.js';

export interface EventTtlSweeperOptions {
  readonly storage: Storage;
  /** The storage prefix of every namespace's Events. */
  readonly prefix: string;
  /** Whole seconds, in ms (upstream's lease TTL is uint64(EventTTL.Seconds())); 0 keeps Events for good. */
  readonly ttlMs: number;
  readonly logger: Logger;
  /** The wall clock (ms), to read an Event's own times after a restart (default Date.now). */
  readonly now?: () => number;
  /** Expiries run on it, as an etcd lease's on etcd's monotonic clock, so a stepped wall clock neither ends Events early nor keeps them (default: `now` when given, else performance.now). */
  readonly monotonicNow?: () => number;
  /** Most Events a pass deletes (default 100). */
  readonly batch?: number;
  /** Time between passes (default: a tenth of the TTL, from 100 ms to 10 s). */
  readonly intervalMs?: number;
  /** Keys read per turn of the event loop while the index is built (default 500). */
  readonly pageSize?: number;
}

interface Expiry { at: number; revision: number }

/** A pass's work: Events deleted, and whether more were due than a pass takes. */
export interface SweepResult { readonly deleted: number; readonly more: boolean }

/** Upstream's TTL in whole seconds, in ms: below a second is no TTL at all. */
export const eventTtlMs = (flagMs: number): number => Math.trunc(flagMs / 1000) * 1000;

/** The last write an Event's own server-set times show: creationTimestamp and managedFields, capped at `now`. */
export function lastWriteOf(value: unknown, now: number): number {
  const meta = (value as { metadata?: ObjectMeta } | undefined)?.metadata;
  let t = Number.NEGATIVE_INFINITY;
  const seen = (s: string | null | undefined) => { const v = s ? Date.parse(s) : NaN; if (!Number.isNaN(v) && v > t) t = v; };
  // Every write plat makes records a managedFields time; an Event without any (a client cleared
  // them) may have been written at any time since, so it is given a whole TTL from now rather
  // than lose one early.
  const times = (meta?.managedFields ?? []).filter((m) => m.time);
  if (times.length === 0) return now;
  seen(meta?.creationTimestamp);
  for (const m of times) seen(m.time);
  return t === Number.NEGATIVE_INFINITY ? now : Math.min(t, now);
}

export class EventTtlSweeper {
  readonly #o: EventTtlSweeperOptions;
  readonly #now: () => number;
  readonly #mono: () => number;
  readonly #batch: number;
  readonly #interval: number;
  readonly #expiry = new Map<string, Expiry>();
  #watch: Watch | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #pass: Promise<SweepResult> | undefined;

  constructor(o: EventTtlSweeperOptions) {
    if (!(o.ttlMs > 0)) throw new RangeError(`event TTL must be positive (got ${o.ttlMs} ms)`);
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#mono = o.monotonicNow ?? o.now ?? (() => performance.now());
    this.#batch = o.batch ?? 100;
    this.#interval = o.intervalMs ?? Math.min(10_000, Math.max(100, o.ttlMs / 10));
  }

  /** How many Events the sweeper keeps an expiry for. */
  get tracked(): number { return this.#expiry.size; }

  /** Builds the index from storage, follows later writes, runs the first pass and schedules the rest. */
  async start(): Promise<void> {
    await this.#index();
    const first = await this.sweep();
    // A backlog that expired while the server was down drains at once, as any full pass's does.
    this.#schedule(first.more ? 0 : this.#interval);
  }

  /** Lists every stored Event (pages of pageSize) and watches from the list's revision on. */
  async #index(): Promise<void> {
    const now = this.#now();
    // An Event's wall-clock last write, carried onto the monotonic clock by its age.
    const offset = this.#mono() - now;
    const seen = new Set<string>();
    let startAfter: string | undefined;
    let revision: number | undefined;
    for (;;) {
      const page = await this.#o.storage.list(this.#o.prefix, { limit: this.#o.pageSize ?? 500, ...(startAfter ? { startAfter } : {}), ...(revision ? { revision } : {}) });
      revision ??= page.revision;
      for (const kv of page.items) {
        seen.add(kv.key);
        const known = this.#expiry.get(kv.key);
        if (known?.revision === kv.modRevision) continue;
        this.#expiry.set(kv.key, { at: offset + lastWriteOf(kv.value, now) + this.#o.ttlMs, revision: kv.modRevision });
      }
      if (!page.more || page.items.length === 0) break;
      startAfter = page.items[page.items.length - 1]!.key;
      await new Promise((r) => setImmediate(r));
    }
    for (const key of this.#expiry.keys()) if (!seen.has(key)) this.#expiry.delete(key);
    this.#follow(revision ?? (await this.#o.storage.currentRevision()));
  }

  #follow(fromRevision: number): void {
    if (this.#stopped) return;
    const watch = this.#o.storage.watch(this.#o.prefix, { fromRevision });
    this.#watch = watch;
    void (async () => {
      try {
        for await (const ev of watch) {
          if (ev.type === 'DELETED') this.#expiry.delete(ev.key);
          else this.#expiry.set(ev.key, { at: this.#mono() + this.#o.ttlMs, revision: ev.revision });
        }
      } catch (e) {
        if (!this.#stopped) this.#o.logger.warn('event TTL watch ended; listing Events again', { error: (e as Error).message });
      }
      // A watch that ended (compacted, fell behind, storage closing) is replaced by a fresh list.
      if (!this.#stopped && this.#watch === watch) await this.#index().catch((e: Error) => this.#o.logger.warn('cannot list Events for their TTL', { error: e.message }));
    })();
  }

  /** One pass: deletes up to `batch` expired Events. */
  sweep(): Promise<SweepResult> {
    this.#pass ??= this.#sweep().finally(() => { this.#pass = undefined; });
    return this.#pass;
  }

  async #sweep(): Promise<SweepResult> {
    const now = this.#mono();
    const due: [string, Expiry][] = [];
    for (const entry of this.#expiry) {
      if (entry[1].at <= now) due.push(entry);
      if (due.length >= this.#batch) break;
    }
    let deleted = 0;
    for (const [key, e] of due) {
      if (this.#stopped) break;
      try {
        await this.#o.storage.delete(key, e.revision);
        deleted++;
        if (this.#expiry.get(key) === e) this.#expiry.delete(key);
      } catch (err) {
        if (isStorageError(err, 'NotFound')) { if (this.#expiry.get(key) === e) this.#expiry.delete(key); continue; }
        // Written again since: the watch has (or will have) its new expiry.
        if (isStorageError(err, 'Conflict')) continue;
        this.#o.logger.warn('cannot delete an expired Event', { key, error: (err as Error).message });
      }
    }
    return { deleted, more: due.length >= this.#batch && deleted > 0 };
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.sweep().then(
        (r) => this.#schedule(r.more ? 0 : this.#interval),
        (e: Error) => { this.#o.logger.warn('event TTL pass failed', { error: e.message }); this.#schedule(this.#interval); },
      );
    }, ms);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#watch?.close();
    await this.#pass?.catch(() => undefined);
  }
}
