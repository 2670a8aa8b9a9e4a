// setTimeout for any delay. Node keeps a timer's delay in a signed 32-bit integer and runs one
// longer than that (about 24.8 days, which duration flags such as --min-resync-period=720h or
// --controller-shutdown-timeout=600h reach) after 1 ms, with a TimeoutOverflowWarning: the wait
// meant to be the longest becomes the shortest. A longer delay is waited out in steps instead.

/** The longest delay one Node timer holds. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fn` once after `ms` (any length); the returned function cancels it. */
export function setLongTimeout(fn: () => void, ms: number, o: { unref?: boolean } = {}): () => void {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer = setTimeout(() => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fn()), Math.min(left, MAX_TIMER_MS));
    if (o.unref) timer.unref();
  };
  arm(Math.max(0, ms));
  return () => clearTimeout(timer);
}

/** AbortSignal.timeout for any delay: aborts with the same TimeoutError, and holds no process open. */
export function timeoutSignal(ms: number): AbortSignal {
  if (ms <= MAX_TIMER_MS) return AbortSignal.timeout(ms);
  const c = new AbortController();
  setLongTimeout(() => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms, { unref: true });
  return c.signal;
}
