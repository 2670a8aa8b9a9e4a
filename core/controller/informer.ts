// An informer (client-go's reflector + store + handlers): list, then watch from the list's
// resourceVersion; keep a local cache of the objects; call add/update/delete handlers; re-list on
// 410 Gone (the version was compacted) or any other watch failure (with the reflector's backoff);
// re-watch when the server ends a watch or its connection breaks (one that ended at once with
// nothing in it is a failure), and after a backoff when a watch is refused with 429 or its
// connection refused; resync (an update event for every cached object) every period.
import type { ApiObject } from '../api/meta.js';
import { isApiError, type ResourceRef, type RestClient } from '../client/rest-client.js';
import type { Logger } from '../log.js';
import { sleep, whenAborted } from '../abort-wait.js';
import { setLongTimeout } from '../long-timeout.js';
import { ExponentialBackoff } from './backoff.js';

export interface InformerHandlers<T extends ApiObject> {
  add?(obj: T): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
}

export interface InformerOptions<T extends ApiObject> {
  readonly client: RestClient;
  readonly resource: ResourceRef;
  readonly handlers?: InformerHandlers<T>;
  /** 0: never. */
  readonly resyncMs?: number;
  readonly fieldSelector?: string;
  readonly logger?: Logger;
  /** Page size of the initial list (0: one page). */
  readonly pageSize?: number;
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

export const objectKey = (o: ApiObject): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name ?? '');

export class Informer<T extends ApiObject> {
  readonly #store = new Map<string, T>();
  readonly #handlers: InformerHandlers<T>[] = [];
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  constructor(private readonly o: InformerOptions<T>) {
    if (o.handlers) this.#handlers.push(o.handlers);
  }

  /** Another consumer's handlers (a shared informer); objects already cached are replayed as adds. */
  addHandlers(h: InformerHandlers<T>): void {
    this.#handlers.push(h);
    for (const obj of this.#store.values()) h.add?.(obj);
  }

  #add(obj: T): void { for (const h of this.#handlers) h.add?.(obj); }
  #update(oldObj: T, newObj: T): void { for (const h of this.#handlers) h.update?.(oldObj, newObj); }
  #delete(obj: T): void { for (const h of this.#handlers) h.delete?.(obj); }

  get(key: string): T | undefined { return this.#store.get(key); }
  list(): T[] { return [...this.#store.values()]; }
  get hasSynced(): boolean { return this.#synced; }

  /** Resolves once the first list is in the cache (or the signal aborts). */
  waitForSync(signal: AbortSignal): Promise<void> {
    if (this.#synced || signal.aborted) return Promise.resolve();
    return Promise.race([new Promise<void>((resolve) => this.#syncWaiters.push(resolve)), whenAborted(signal)]);
  }

  async #list(signal: AbortSignal): Promise<string> {
    const items: T[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.o.client.list<T>(this.o.resource, {
        ...(this.o.fieldSelector ? { fieldSelector: this.o.fieldSelector } : {}),
        ...(this.o.pageSize ? { limit: this.o.pageSize } : {}), ...(cont ? { continue: cont } : {}),
      }, { signal });
      items.push(...page.items);
      rv = page.metadata.resourceVersion ?? '';
      cont = page.metadata.continue || undefined;
    } while (cont && !signal.aborted);
    const seen = new Set<string>();
    for (const item of items) {
      const key = objectKey(item);
      seen.add(key);
      const old = this.#store.get(key);
      this.#store.set(key, item);
      if (old) this.#update(old, item); else this.#add(item);
    }
    for (const [key, old] of this.#store) {
      if (!seen.has(key)) { this.#store.delete(key); this.#delete(old); }
    }
    if (!this.#synced) { this.#synced = true; for (const w of this.#syncWaiters.splice(0)) w(); }
    return rv;
  }

  #apply(type: string, obj: T): void {
    const key = objectKey(obj);
    const old = this.#store.get(key);
    if (type === 'DELETED') {
      this.#store.delete(key);
      this.#delete(old ?? obj);
    } else {
      this.#store.set(key, obj);
      if (old) this.#update(old, obj); else this.#add(obj);
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    const log = this.o.logger;
    // A successful list does not reset the backoff: a watch that always fails right after one (a
    // user that may list but not watch) would re-list every 800ms for ever.
    const backoff = this.o.backoff ?? new ExponentialBackoff();
    const failed = (): number => backoff.next();
    const now = this.o.now ?? (() => performance.now());
    let stopResync = (): void => {};
    const resyncEvery = (ms: number): void => {
      stopResync = setLongTimeout(() => { for (const obj of this.#store.values()) this.#update(obj, obj); resyncEvery(ms); }, ms, { unref: true });
    };
    if (this.o.resyncMs) resyncEvery(this.o.resyncMs);
    try {
      while (!signal.aborted) {
        let rv: string;
        try {
          rv = await this.#list(signal);
        } catch (e) {
          if (signal.aborted) break;
          const retryInMs = failed();
          log?.warn('list failed; retrying', { resource: this.o.resource.plural, error: (e as Error).message, retryInMs });
          await sleep(retryInMs, signal);
          continue;
        }
        // Watch until the version is gone (then list again) or something breaks.
        for (;;) {
          if (signal.aborted) return;
          try {
            // The reflector's random watch timeout: 5 to 10 minutes, so watches end and restart spread out.
            const timeoutSeconds = Math.floor(300 * (1 + Math.random()));
            let gone = false;
            let throttled = false;
            const started = now();
            let received = 0;
            for await (const ev of this.o.client.watch<T>(this.o.resource, { resourceVersion: rv, timeoutSeconds, signal, ...(this.o.fieldSelector ? { fieldSelector: this.o.fieldSelector } : {}) })) {
              received++;
              if (ev.type === 'ERROR') {
                const status = ev.object as unknown as { code?: number; reason?: string; message?: string };
                if (status.code === 410) { gone = true; break; }
                if (status.code === 429 || status.reason === 'TooManyRequests') { throttled = true; break; }
                throw new Error(`watch error: ${status.message ?? JSON.stringify(ev.object)}`);
              }
              rv = ev.object.metadata.resourceVersion ?? rv;
              if (ev.type !== 'BOOKMARK') this.#apply(ev.type, ev.object);
            }
            if (gone) { log?.v(2).info('watch expired; re-listing', { resource: this.o.resource.plural }); break; }
            if (throttled) {
              log?.v(2).info('watch returned 429; backing off', { resource: this.o.resource.plural });
              await sleep(failed(), signal);
              continue;
            }
            // Ended at once with nothing in it (a proxy or a server that closes watches as it takes
            // them): watching again at once would spin on the server, so it is a failure, backed off.
            if (received === 0 && !signal.aborted && now() - started < SHORT_WATCH_MS) {
              throw new Error(`very short watch: the server closed it within ${SHORT_WATCH_MS / 1000}s and sent nothing`);
            }
          } catch (e) {
            if (signal.aborted) return;
            if (isApiError(e) && e.code === 410) break;
            // The reflector's isWatchErrorRetriable: the watch could not be opened for now, but the
            // cache is still good; back off and watch again from where it was.
            if (isWatchErrorRetriable(e)) {
              const retryInMs = failed();
              log?.v(4).info('watch failed; backing off', { resource: this.o.resource.plural, error: (e as Error).message, retryInMs });
              await sleep(retryInMs, signal);
              continue;
            }
            const retryInMs = failed();
            log?.warn('watch failed; re-listing', { resource: this.o.resource.plural, error: (e as Error).message, retryInMs });
            await sleep(retryInMs, signal);
            break;
          }
        }
      }
    } finally {
      stopResync();
    }
  }
}
