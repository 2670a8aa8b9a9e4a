// requestTimeoutUpperBound (pkg/endpoints/handlers/rest.go): the create, update, patch, delete and
// deletecollection handlers give their work a context of at most 34 s, whatever the request's own
// deadline (--request-timeout is 60 s by default). When it ends first, FinishRequest answers Timeout
// `request did not complete within requested timeout - context deadline exceeded` and the work's
// later calls (an admission webhook, the storage write) are refused, as with the request's own.
import { setMaxListeners } from 'node:events';
import { linkedAbort } from '../client/linked-abort.js';
import { setLongTimeout } from '../long-timeout.js';
import { ContextError, DEADLINE_EXCEEDED } from './request-signal.js';

export const REQUEST_TIMEOUT_UPPER_BOUND_MS = 34_000;

export interface WriteContext {
  readonly signal: AbortSignal | undefined;
  /** ms since the epoch, as the request's deadline. */
  readonly deadline: number | undefined;
  release(): void;
}

/** The request's context, or one that also ends 34 s from now when the request's would end later. */
export function writeContext(parent: AbortSignal | undefined, deadline: number | undefined, now = Date.now()): WriteContext {
  const bound = now + REQUEST_TIMEOUT_UPPER_BOUND_MS;
  // Writes plat makes itself have no context; a request whose deadline comes first keeps its own.
  if (!parent || (deadline !== undefined && deadline <= bound)) return { signal: parent, deadline, release: () => {} };
  const link = linkedAbort(parent);
  // As the request's: a write's parallel webhook calls each listen on it.
  setMaxListeners(0, link.signal);
  const cancel = setLongTimeout(() => link.abort(new ContextError(DEADLINE_EXCEEDED)), REQUEST_TIMEOUT_UPPER_BOUND_MS);
  return {
    signal: link.signal, deadline: bound,
    release: () => { cancel(); link.unlink(); },
  };
}
