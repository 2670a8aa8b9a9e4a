// Waiting on an AbortSignal without piling listeners onto it. A long-lived signal (a controller
// manager's, a node agent's) is awaited by many parts at once and slept on over and over; a
// listener per wait would be a leak in the loops and, past ten, a MaxListenersExceededWarning
// even when each part waits once. So sleeps remove theirs when the timer fires, and everything
// that waits for the end shares one listener per signal.
import { setLongTimeout } from './long-timeout.js';

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
    const onAbort = () => { cancel(); aborted(); };
    const cancel = setLongTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const ends = new WeakMap<AbortSignal, Promise<void>>();

/** Resolves when `signal` aborts (at once if it has); all waiters of one signal share one listener. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  let end = ends.get(signal);
  if (!end) {
    end = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    ends.set(signal, end);
  }
  return end;
}
