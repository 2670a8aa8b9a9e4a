// Waiting that an AbortSignal cuts short. The abort listener goes when the timer fires: a
// long-lived signal (a controller's, a certificate wait's) would otherwise collect one per sleep,
// a leak that node reports as a MaxListenersExceededWarning once there are eleven.

/** Resolves after `ms` (at least one turn of the event loop), or as soon as `signal` aborts; never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return wait(ms, signal, false);
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first (or already has). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return wait(ms, signal, true);
}

function wait(ms: number, signal: AbortSignal | undefined, rejectOnAbort: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const aborted = () => (rejectOnAbort ? reject(signal!.reason) : resolve());
    if (signal?.aborted) return aborted();
    const onAbort = () => { clearTimeout(timer); aborted(); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
