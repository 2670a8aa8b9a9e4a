// What upstream logs when a request's work ends after its client was answered 504 (or went away):
// through utilruntime.HandleError, at error level, as "Unhandled Error". The outer line is the
// timeout filter's (pkg/server/filters/timeout.go), once the handler returns; its result is what
// the handler panicked with, <nil> when it returned. A returned error is no panic: upstream's
// handlers write errors as answers; plat's throw them as StatusErrors, and its storage and context
// errors are returned errors too. Anything else thrown is plat's fault, its panic.
import { isStatusError } from '../api/errors.js';
import { formatDuration } from '../flags/duration.js';
import { goQuote } from '../go-quote.js';
import type { Logger } from '../log.js';
import { isStorageError } from '../storage/storage.js';
import { ContextError } from './request-signal.js';

/** What a thrown value would have been as a Go panic's recovered value (value, then stack), or undefined for an error returned. */
export function panicReason(e: unknown): string | undefined {
  if (isStatusError(e) || isStorageError(e) || e instanceof ContextError) return undefined;
  if (e instanceof Error) return e.stack ?? e.message;
  return String(e);
}

export const elapsedSince = (startMs: number): string => formatDuration(performance.now() - startMs);

/** Logs the timeout filter's line when `work` ends; `timedOutAt` is performance.now() at the timeout. */
export function logPostTimeoutActivity(log: Logger, method: string, path: string, work: Promise<unknown>, timedOutAt: number): void {
  void work.then(() => undefined, panicReason).then((result) => {
    log.error('Unhandled Error', { err: `post-timeout activity - time-elapsed: ${elapsedSince(timedOutAt)}, ${method} ${goQuote(path)} result: ${result ?? '<nil>'}` });
  });
}
