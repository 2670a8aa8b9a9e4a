// The request context, as an AbortSignal: upstream derives it from net/http's request context
// (cancelled when the client goes away: for HTTP/1.1 when the connection's background read sees it
// close, for HTTP/2 when the stream is reset), with WithRequestDeadline's deadline for a request
// that is not long-running; a watch's has no deadline, only its client. Its reason is ctx.Err()'s text, which is what a storage call made
// with the context fails with (etcd's client hands ctx.Err() back): whichever ended it first.
import { setMaxListeners } from 'node:events';
import type Koa from 'koa';
import { setLongTimeout } from '../long-timeout.js';

export const DEADLINE_EXCEEDED = 'context deadline exceeded';
export const CANCELED = 'context canceled';

/** context.DeadlineExceeded or context.Canceled: an error the request's calls return, not a fault. */
export class ContextError extends Error {}

export interface RequestSignal {
  readonly signal: AbortSignal;
  /** Stops watching the clock and the connection (the request has been answered). */
  release(): void;
}

/** `ms` undefined: no deadline (a long-running request), the context ends only with its client. */
export function requestSignal(ctx: Koa.Context, ms?: number): RequestSignal {
  const c = new AbortController();
  // Every call the request makes in parallel listens on it (a validating webhook each, called all
  // at once): a dozen is a configuration, not a leak, and Node's warning past ten would say leak.
  setMaxListeners(0, c.signal);
  // The deadline is kept on the timer's clock, as Go's context keeps its own: --request-timeout=1000h
  // needs a timer that does not overflow.
  const cancelTimer = ms === undefined ? () => {} : setLongTimeout(() => c.abort(new ContextError(DEADLINE_EXCEEDED)), ms);
  // 'close' before the answer has been ended is the client gone (the answer's own end closes it too).
  const onClose = () => { if (!ctx.res.writableEnded) c.abort(new ContextError(CANCELED)); };
  ctx.res.once('close', onClose);
  return {
    signal: c.signal,
    release: () => { cancelTimer(); ctx.res.removeListener('close', onClose); },
  };
}
