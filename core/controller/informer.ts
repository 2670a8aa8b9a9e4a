// An informer (client-go's reflector + store + handlers): list, then watch from the list's
// resourceVersion; keep a local cache of the objects; call add/update/delete handlers; re-list,
// after the reflector's backoff, on 410 (the version was compacted), any other watch failure or a
// watch that ended at once with nothing in it; re-watch at once when the server ends a watch or
// its connection breaks, and after a backoff when a watch is refused with 429 or its connection
// refused; resync (an update event for every cached object) every period.
import type { ApiObject } from '../api/meta.js';
import { goClientErrorText } from '../client/go-url-error.js';
import { panicFields } from '../go-panic-fields.js';
import { ApiError, isApiError, type ResourceRef, type RestClient } from '../client/rest-client.js';
import type { Logger } from '../log.js';
import { sleep, whenAborted } from '../abort-wait.js';
import { formatDuration } from '../flags/duration.js';
import { setLongTimeout } from '../long-timeout.js';
import { ExponentialBackoff } from './backoff.js';

/**
 * client-go's DeletedFinalStateUnknown: an object a relist no longer had. Its delete happened while
 * no watch was open, so `obj` is the last state the cache held, not the object's final one.
 */
export interface DeletedFinalStateUnknown<T extends ApiObject> {
  readonly key: string;
  readonly obj: T;
}

export interface InformerHandlers<T extends ApiObject> {
  add?(obj: T): void;
  update?(oldObj: T, newObj: T): void;
  /**
   * `tombstone` is set for a delete the informer did not watch but inferred from a relist. client-go
   * hands such a delete the tombstone in place of the object; plat passes it beside the object (its
   * last known state), so a handler that needs no difference reads `obj` and needs no unwrapping.
   */
  delete?(obj: T, tombstone?: DeletedFinalStateUnknown<T>): void;
}

export interface InformerOptions<T extends ApiObject> {
  readonly client: RestClient;
  readonly resource: ResourceRef;
  readonly handlers?: InformerHandlers<T>;
  /** 0: never. */
  readonly resyncMs?: number;
  readonly fieldSelector?: string;
  readonly logger?: Logger;
  /** The pager's page size (0: one page); lists from a known version are not paged (the reflector's rule). */
  readonly pageSize?: number;
  /** Names it in log lines (the reflector's name, upstream the file:line that made the informer). */
  readonly name?: string;
  /** Waits after a failed list or watch; the reflector's by default. */
  readonly backoff?: ExponentialBackoff;
  /** Milliseconds, for how long a watch lasted; performance.now by default. */
  readonly now?: () => number;
}

/** A watch ended by the server sooner than this, with nothing in it, counts as failed (the reflector's "very short watch"). */
export const SHORT_WATCH_MS = 1000;

/** A watch refused for now (429) or a server not listening: watched again after a backoff, not re-listed. */
export const isWatchErrorRetriable = (e: unknown): boolean =>
  (isApiError(e) && (e.code === 429 || e.reason === 'TooManyRequests')) || (e as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';

/** The name of an informer no one named. */
export const INFORMER_NAME = 'core/controller/informer.ts';

export const objectKey = (o: ApiObject): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name ?? '');

export class Informer<T extends ApiObject> {
  readonly #store = new Map<string, T>();
  readonly #handlers: InformerHandlers<T>[] = [];
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  #lastSyncResourceVersion = '';
  /** The last list or watch found that version expired or too new: list from the latest. */
  #versionUnavailable = false;
  /** The first list (from "0") came in pages: the server pages, so later lists page too. */
  #paginatedResult = false;
  readonly #name: string;
  readonly #type: string;
  constructor(private readonly o: InformerOptions<T>) {
    if (o.handlers) this.#handlers.push(o.handlers);
    this.#name = o.name ?? INFORMER_NAME;
    this.#type = o.resource.kind ? `*${o.resource.version}.${o.resource.kind}` : '<unspecified>';
  }

  /** Another consumer's handlers (a shared informer); objects already cached are replayed as adds. */
  addHandlers(h: InformerHandlers<T>): void {
    this.#handlers.push(h);
    for (const obj of this.#store.values()) this.#notify([h], (x) => x.add?.(obj));
  }

  #add(obj: T): void { this.#notify(this.#handlers, (h) => h.add?.(obj)); }
  #update(oldObj: T, newObj: T): void { this.#notify(this.#handlers, (h) => h.update?.(oldObj, newObj)); }
  #delete(obj: T, tombstone?: DeletedFinalStateUnknown<T>): void { this.#notify(this.#handlers, (h) => h.delete?.(obj, tombstone)); }

  /**
   * An event's call of each handler. A handler that throws (a plugin's bug) is logged with client-go's HandleCrash
   * line and passed over, as a processorListener skips the notification it panicked on; thrown
   * through, it would end the list or watch half applied, and a list that throws every time would
   * never sync the cache every controller of the process waits for. Upstream's default re-panics and
   * the process exits; here that would take the API server and every plugin down with one handler.
   */
  #notify(handlers: readonly InformerHandlers<T>[], call: (h: InformerHandlers<T>) => void): void {
    for (const h of handlers) {
      try {
        call(h);
      } catch (e) {
        this.o.logger?.error('Observed a panic', panicFields(e));
      }
    }
  }

  get(key: string): T | undefined { return this.#store.get(key); }
  list(): T[] { return [...this.#store.values()]; }
  get hasSynced(): boolean { return this.#synced; }

  /** Resolves once the first list is in the cache (or the signal aborts). */
  waitForSync(signal: AbortSignal): Promise<void> {
    if (this.#synced || signal.aborted) return Promise.resolve();
    return Promise.race([new Promise<void>((resolve) => this.#syncWaiters.push(resolve)), whenAborted(signal)]);
  }

  /**
   * The reflector's list(): from "0" at first (any version will do), then from the last version
   * seen, or from the latest ("") once that version proved unavailable; paginated unless listing
   * from a known version (which the server can answer from its cache) on a server that did not
   * paginate the first list. Throws "failed to list <type>: <error>" after a warning.
   */
  async #list(signal: AbortSignal): Promise<void> {
    let resourceVersion = this.#relistResourceVersion();
    // The pager is set up once per list: the retry from the latest after an unavailable version
    // keeps the first request's page size (none, when that was a known version), as upstream's.
    const pageSize = this.#paginatedResult || resourceVersion === '' || resourceVersion === '0' ? this.o.pageSize ?? 0 : 0;
    let items: T[];
    let rv: string;
    try {
      try {
        ({ items, rv } = await this.#pages(resourceVersion, pageSize, signal));
      } catch (e) {
        if (!isExpiredError(e) && !isTooLargeResourceVersionError(e)) throw e;
        this.#versionUnavailable = true;
        resourceVersion = this.#relistResourceVersion();
        ({ items, rv } = await this.#pages(resourceVersion, pageSize, signal));
      }
    } catch (e) {
      if (signal.aborted) throw e;
      // The reflector unblocks whoever waits for the sync with an empty cache: the server has none.
      if (isApiError(e) && e.code === 404) this.#replace([]);
      this.o.logger?.warn(`${this.#name}: failed to list ${this.#type}: ${goClientErrorText(e)}`);
      throw new Error(`failed to list ${this.#type}: ${goClientErrorText(e)}`, { cause: e });
    }
    if (signal.aborted) return; // a list cut short is no snapshot to replace the cache with
    this.#versionUnavailable = false;
    this.#replace(items);
    this.#lastSyncResourceVersion = rv;
  }

  /** pager.List: pages of `limit` (none when 0) until the last; an expired continuation is listed whole. */
  async #pages(resourceVersion: string, pageSize: number, signal: AbortSignal): Promise<{ items: T[]; rv: string }> {
    const selector = this.o.fieldSelector ? { fieldSelector: this.o.fieldSelector } : {};
    const items: T[] = [];
    let cont: string | undefined;
    for (;;) {
      // Continuations carry no resourceVersion: the token pins the version.
      const query = { ...selector, ...(pageSize ? { limit: pageSize } : {}), ...(cont ? { continue: cont } : { resourceVersion: resourceVersion || undefined }) };
      let page;
      try {
        page = await this.o.client.list<T>(this.o.resource, query, { signal });
      } catch (e) {
        if (!cont || !(isApiError(e) && (e.code === 410 || e.reason === 'Expired'))) throw e;
        const whole = await this.o.client.list<T>(this.o.resource, { ...selector, resourceVersion: resourceVersion || undefined }, { signal });
        // The server did page (this was a continuation), so later lists page too, as the pager
        // reports a paginated result whatever page came after the first.
        if (resourceVersion === '0') this.#paginatedResult = true;
        return { items: whole.items, rv: whole.metadata.resourceVersion ?? '' };
      }
      items.push(...page.items);
      if (!page.metadata.continue || signal.aborted) {
        if (cont && resourceVersion === '0') this.#paginatedResult = true;
        return { items, rv: page.metadata.resourceVersion ?? '' };
      }
      cont = page.metadata.continue;
    }
  }

  #relistResourceVersion(): string {
    if (this.#versionUnavailable) return '';
    return this.#lastSyncResourceVersion || '0';
  }

  /**
   * The DeltaFIFO's Replace: the list's objects are added or updated, the others deleted with a
   * tombstone (their delete was missed); the cache is synced.
   */
  #replace(items: T[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      const key = objectKey(item);
      seen.add(key);
      const old = this.#store.get(key);
      this.#store.set(key, item);
      if (old) this.#update(old, item); else this.#add(item);
    }
    for (const [key, old] of this.#store) {
      if (!seen.has(key)) { this.#store.delete(key); this.#delete(old, { key, obj: old }); }
    }
    if (!this.#synced) { this.#synced = true; for (const w of this.#syncWaiters.splice(0)) w(); }
  }

  #apply(type: string, obj: T): void {
    const key = objectKey(obj);
    const old = this.#store.get(key);
    if (type === 'DELETED') {
      // The DeltaFIFO's Delete: a key the cache does not hold was already reported gone (by a
      // relist, say) and is not reported twice; handlers get the object's final state, as sent.
      if (!old) return;
      this.#store.delete(key);
      this.#delete(obj);
    } else {
      this.#store.set(key, obj);
      if (old) this.#update(old, obj); else this.#add(obj);
    }
  }

  /**
   * The reflector's Run: ListAndWatch over and over, each return (an error, an expired version, a
   * watch that failed or was very short) followed by one backoff wait, as wait.BackoffUntil with
   * sliding: a server that answers every watch with 410 gets a list and a watch per backoff.
   */
  async run(signal: AbortSignal): Promise<void> {
    const backoff = this.o.backoff ?? new ExponentialBackoff();
    const about = `${this.#type} (${formatDuration(this.o.resyncMs ?? 0)}) from ${this.#name}`;
    this.o.logger?.v(3).info(`Starting reflector ${about}`);
    while (!signal.aborted) {
      try {
        await this.#listAndWatch(signal, backoff);
      } catch (e) {
        if (!signal.aborted) this.#watchErrorHandler(e);
      }
      if (signal.aborted) break;
      await sleep(backoff.next(), signal);
    }
    this.o.logger?.v(3).info(`Stopping reflector ${about}`);
  }

  /**
   * The reflector's startResync: an update event for every cached object each period, from the
   * end of a list until its ListAndWatch returns. No resync while lists fail (the cache is stale,
   * and a relist brings every object anyway); each relist starts the period over.
   */
  #startResync(): () => void {
    const ms = this.o.resyncMs;
    if (!ms) return () => {};
    let stop = (): void => {};
    const arm = (): void => {
      stop = setLongTimeout(() => {
        this.o.logger?.v(4).info(`${this.#name}: forcing resync`);
        for (const obj of this.#store.values()) this.#update(obj, obj);
        arm();
      }, ms, { unref: true });
    };
    arm();
    return () => stop();
  }

  /** DefaultWatchErrorHandler. */
  #watchErrorHandler(e: unknown): void {
    const message = goClientErrorText(e);
    if (isExpiredError(e)) this.o.logger?.v(4).info(`${this.#name}: watch of ${this.#type} closed with: ${message}`);
    else this.o.logger?.error('Unhandled Error', { err: `${this.#name}: Failed to watch ${this.#type}: ${message}` });
  }

  /** The reflector's ListAndWatch: throws what ended it before a watch was under way, returns otherwise. */
  async #listAndWatch(signal: AbortSignal, backoff: ExponentialBackoff): Promise<void> {
    const log = this.o.logger;
    log?.v(3).info(`Listing and watching ${this.#type} from ${this.#name}`);
    await this.#list(signal);
    if (signal.aborted) return;
    log?.v(2).info(`Caches populated for ${this.#type} from ${this.#name}`);
    const stopResync = this.#startResync();
    try {
      await this.#watch(signal, backoff);
    } finally {
      stopResync();
    }
  }

  /** The reflector's watch(): watches from the last version seen until one ends with an error. */
  async #watch(signal: AbortSignal, backoff: ExponentialBackoff): Promise<void> {
    const log = this.o.logger;
    const now = this.o.now ?? (() => performance.now());
    for (;;) {
      if (signal.aborted) return;
      // The reflector's random watch timeout: 5 to 10 minutes, so watches end and restart spread out.
      const timeoutSeconds = Math.floor(300 * (1 + Math.random()));
      const started = now();
      let received = 0;
      let ended: unknown;
      try {
        for await (const ev of this.o.client.watch<T>(this.o.resource, {
          resourceVersion: this.#lastSyncResourceVersion, timeoutSeconds, signal,
          ...(this.o.fieldSelector ? { fieldSelector: this.o.fieldSelector } : {}),
        })) {
          if (ev.type === 'ERROR') { ended = statusError(ev.object); break; }
          received++;
          this.#lastSyncResourceVersion = ev.object.metadata.resourceVersion ?? this.#lastSyncResourceVersion;
          if (ev.type !== 'BOOKMARK') this.#apply(ev.type, ev.object);
        }
      } catch (e) {
        if (signal.aborted) return;
        // Not opened (an answer other than 200, or no connection): the reflector's Watch() error.
        if (received === 0 && (isApiError(e) || (e as NodeJS.ErrnoException).code !== undefined)) {
          // isWatchErrorRetriable: the cache is still good; watch again from where it was.
          if (isWatchErrorRetriable(e)) {
            log?.v(4).info(`${this.#name}: watch of ${this.#type} returned ${goClientErrorText(e)} - backing off`);
            await sleep(backoff.next(), signal);
            continue;
          }
          throw e;
        }
        ended = e;
      }
      if (signal.aborted) return;
      // Ended at once with nothing in it (a proxy or a server that closes watches as it takes them).
      if (ended === undefined && received === 0 && now() - started < SHORT_WATCH_MS) {
        ended = new Error(`very short watch: ${this.#name}: Unexpected watch close - watch lasted less than a second and no items received`);
      }
      if (ended === undefined) {
        log?.v(4).info(`${this.#name}: Watch close - ${this.#type} total ${received} items received`);
        continue;
      }
      if (isExpiredError(ended)) {
        log?.v(4).info(`${this.#name}: watch of ${this.#type} closed with: ${(ended as Error).message}`);
      } else if (isApiError(ended) && (ended.code === 429 || ended.reason === 'TooManyRequests')) {
        log?.v(2).info(`${this.#name}: watch of ${this.#type} returned 429 - backing off`);
        await sleep(backoff.next(), signal);
        continue;
      } else {
        log?.warn(`${this.#name}: watch of ${this.#type} ended with: ${(ended as Error).message}`);
      }
      return;
    }
  }
}

/** apierrors.FromObject of an ERROR event's Status. */
export function statusError(object: unknown): ApiError {
  const st = object as { code?: number; reason?: string; message?: string };
  return new ApiError(st.code ?? 500, st.reason ?? '', st.message ?? JSON.stringify(object), object);
}

/** errors.As for an API error: the list's `failed to list ...` wrapper keeps the server's answer as its cause. */
function apiErrorOf(e: unknown): ApiError | undefined {
  for (let at = e, depth = 0; at !== undefined && depth < 16; at = (at as { cause?: unknown }).cause, depth++) {
    if (isApiError(at)) return at;
    if (typeof at !== 'object' || at === null) return undefined;
  }
  return undefined;
}

/** isExpiredError: 410 Expired, or Gone from servers before 1.18 (seen through wrappers, as apierrors does). */
export function isExpiredError(err: unknown): boolean {
  const e = apiErrorOf(err);
  return !!e && (e.reason === 'Expired' || e.reason === 'Gone' || (e.reason === '' && e.code === 410));
}

/** isTooLargeResourceVersionError: a version newer than the server has seen (its cache is behind). */
export function isTooLargeResourceVersionError(err: unknown): boolean {
  const e = apiErrorOf(err);
  if (!e) return false;
  const status = e.body as { message?: string; details?: { causes?: { type?: string; message?: string }[] } } | undefined;
  const causes = status?.details?.causes ?? [];
  if (causes.some((c) => c.type === 'ResourceVersionTooLarge')) return true;
  if (e.reason !== 'Timeout') return false;
  return causes.some((c) => c.message === 'Too large resource version') || (status?.message ?? '').includes('Too large resource version');
}
