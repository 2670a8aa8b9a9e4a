// Upstream's finisher.FinishRequest (pkg/endpoints/handlers/finisher, its asyncFinisher): a
// write's work (admission, then storage) runs apart from its handler, which stops waiting for it
// once the request's context ends and returns Timeout "request did not complete within requested
// timeout - <ctx.Err()>"; the client has had the timeout filter's 504 by then, or is gone. The work
// goes on (its storage call refused, the context having ended) and how it ended is logged, or,
// after five minutes, that it has not.
import { errors } from '../api/errors.js';
import type { Logger } from '../log.js';
import { setLongTimeout } from '../long-timeout.js';
import { elapsedSince, panicReason } from './post-timeout.js';

/** postTimeoutLoggerWait: how long the end of the work is waited for once the request has ended. */
export const POST_TIMEOUT_LOGGER_WAIT_MS = 5 * 60_000;

export function finishRequest<T>(signal: AbortSignal | undefined, log: Logger, fn: () => Promise<T>, waitMs = POST_TIMEOUT_LOGGER_WAIT_MS): Promise<T> {
  const work = (async () => fn())();
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abandon = () => {
      logPostTimeoutResult(log, work, waitMs);
      reject(errors.timeout(`request did not complete within requested timeout - ${(signal.reason as Error).message}`));
    };
    // A context already ended: Go's select finds the work not yet done.
    if (signal.aborted) return abandon();
    signal.addEventListener('abort', abandon, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon));
  });
}

/** logPostTimeoutResult, through utilruntime.HandleError; the wait's end through klog.Errorf. */
function logPostTimeoutResult(log: Logger, work: Promise<unknown>, waitMs: number): void {
  const timedOutAt = performance.now();
  let logged = false;
  const cancel = setLongTimeout(() => {
    logged = true;
    log.error(`FinishRequest: post-timeout activity, waited for ${elapsedSince(timedOutAt)}, child goroutine has not returned yet`);
  }, waitMs, { unref: true });
  void work.then(() => ({ err: undefined, panic: undefined }), (e: unknown) => {
    const panic = panicReason(e);
    return { err: panic === undefined ? (e as Error).message : undefined, panic };
  }).then(({ err, panic }) => {
    if (logged) return;
    cancel();
    log.error('Unhandled Error', { err: `FinishRequest: post-timeout activity - time-elapsed: ${elapsedSince(timedOutAt)}, panicked: ${panic !== undefined}, err: ${err ?? '<nil>'}, panic-reason: ${panic ?? '<nil>'}` });
  });
}
