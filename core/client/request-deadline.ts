// The timeout of a request, retries included (client-go's context.WithTimeout in request()):
// when it passes, the attempt in flight is abandoned and the request fails with Go's
// `context deadline exceeded`, which kubectl shows as `Unable to connect to the server: ...`.

import { setLongTimeout } from '../long-timeout.js';
import { linkedAbort } from './linked-abort.js';

export interface RequestDeadline {
  readonly ms: number;
  /** Aborts when the deadline passes or the caller's signal does. */
  readonly signal: AbortSignal;
  expired(): boolean;
  /** Go's url.Error for the deadline: its URL names the request, as the REST client's other failures. */
  error(url: URL): Error;
  /** Ends the timer and stops following the caller's signal: call when the request is over. */
  clear(): void;
}

export function requestDeadline(ms: number | undefined, caller: AbortSignal | undefined): RequestDeadline | undefined {
  if (!ms || ms <= 0) return undefined;
  // Not AbortSignal.any: it leaves a record on the caller's signal for every request (linked-abort.ts).
  const linked = caller ? linkedAbort(caller) : undefined;
  const own = linked ?? new AbortController();
  let passed = false;
  // --request-timeout=1000h is a timeout too, not 1 ms (a plain timer's overflow).
  const cancel = setLongTimeout(() => { passed = true; own.abort(new Error('context deadline exceeded')); }, ms);
  return {
    ms, signal: own.signal,
    expired: () => passed && !caller?.aborted,
    error: (url) => Object.assign(new Error('context deadline exceeded'), { url: url.href }),
    clear: () => { cancel(); linked?.unlink(); },
  };
}
