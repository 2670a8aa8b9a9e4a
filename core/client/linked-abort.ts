// A controller that also aborts when a longer-lived signal does: AbortSignal.any([source, own])
// without its leak. Node 20 registers every signal made by AbortSignal.any in a set of the
// source's (a WeakRef each) and empties that set only when the source aborts. The REST client
// derives one for each request with a timeout from its caller's signal, which in a node agent or a
// controller manager lives as long as the process: a heartbeat or a lease renewal every few
// seconds left a record behind for good (measured on a running node agent: its WeakRefs grew with
// every request, about 5 MB per 100,000 requests). Here a follower is forgotten once its request
// is over, and the source keeps one listener only while it has followers.

/** The controllers following a source, and how to take the source's one listener off again. */
interface Followers { readonly controllers: Set<AbortController>; readonly stop: () => void }

const bySource = new WeakMap<AbortSignal, Followers>();

export interface LinkedAbort {
  /** Aborts on abort() or when the source aborts (with the source's reason). */
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Stops following the source; call once the work the signal guards is over. */
  unlink(): void;
}

export function linkedAbort(source: AbortSignal): LinkedAbort {
  const own = new AbortController();
  const abort = (reason: unknown) => own.abort(reason);
  if (source.aborted) {
    own.abort(source.reason);
    return { signal: own.signal, abort, unlink: () => {} };
  }
  let followers = bySource.get(source);
  if (!followers) {
    const controllers = new Set<AbortController>();
    const onAbort = () => {
      bySource.delete(source);
      for (const c of controllers) c.abort(source.reason);
      controllers.clear();
    };
    source.addEventListener('abort', onAbort, { once: true });
    followers = { controllers, stop: () => source.removeEventListener('abort', onAbort) };
    bySource.set(source, followers);
  }
  const mine = followers;
  mine.controllers.add(own);
  return {
    signal: own.signal,
    abort,
    unlink: () => {
      if (!mine.controllers.delete(own) || mine.controllers.size > 0) return;
      if (bySource.get(source) === mine) bySource.delete(source);
      mine.stop();
    },
  };
}

/**
 * AbortSignal.any([source, AbortSignal.timeout(ms)]) without its leak: the signal aborts with
 * the source's reason, or with the timeout's TimeoutError after `ms`. Call `unlink()` once the
 * work is over.
 */
export function linkedTimeout(source: AbortSignal, ms: number): { readonly signal: AbortSignal; unlink(): void } {
  const link = linkedAbort(source);
  const timeout = AbortSignal.timeout(ms);
  const onTimeout = () => link.abort(timeout.reason);
  timeout.addEventListener('abort', onTimeout, { once: true });
  return {
    signal: link.signal,
    unlink: () => { timeout.removeEventListener('abort', onTimeout); link.unlink(); },
  };
}
