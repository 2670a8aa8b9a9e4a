// --request-timeout, as the API server's WithRequestDeadline + WithTimeoutForNonLongRunningRequests:
// a request that is not long-running (watches are) gets the flag's time, or less when its URL asks
// for less with `timeout=` (kubectl --request-timeout sends it; 0 or more than the flag's means the
// flag's). Its context (request-signal.ts) ends at that deadline or when the client goes away; then
// the client gets 504 Timeout at once (a client gone gets nothing: upstream's 504 goes to a closed
// connection) while the work goes on to its end, as upstream's handler goroutine does, and its end
// is logged ("post-timeout activity") and counted (apiserver_request_terminations_total, code 504). A write under way may still land, which the message allows
// for, but one not yet begun is refused (the store checks the context, as etcd's client does). A
// plugin that never answers (an admission tap, say) therefore costs a client a minute, not for ever.
// The deadline also covers writing the answer (answer-deadline.ts): one not yet written by then is
// cut, its HTTP/1.1 connection closed or its HTTP/2 stream reset, logged and counted the same way.
import type Koa from 'koa';
import { errors } from '../api/errors.js';
import { goJsonEncode } from '../api/go-json-marshal.js';
import { parseDuration } from '../flags/duration.js';
import type { Logger } from '../log.js';
import type { TerminationMetrics } from '../metrics/apiserver-inflight.js';
import { abortAnswer, untilWritten } from './answer-deadline.js';
import { logPostTimeoutActivity } from './post-timeout.js';
import type { RequestInfo } from './request-info.js';
import { recordTermination } from './request-metrics.js';
import { requestSignal } from './request-signal.js';
import { SNAPSHOT_PATH } from './snapshot-route.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Upstream's BasicLongRunningRequestCheck for the verbs and subresources plat serves. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'log', 'portforward', 'proxy']);

/** plat's GET /snapshot (snapshot-route.ts): a whole store copied and sent, as etcd streams its snapshot. */
const LONG_RUNNING_PATHS = new Set([SNAPSHOT_PATH]);

export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return LONG_RUNNING_PATHS.has(info.path);
  return info.verb === 'watch' || info.verb === 'proxy' || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

/** The deadline of a request in ms, from the flag and the URL's `timeout`; throws 400 for a bad one. */
export function requestTimeoutMs(query: URLSearchParams, maximumMs: number): number {
  const asked = query.get('timeout');
  if (asked === null || asked === '') return maximumMs;
  let ms: number;
  try {
    ms = parseDuration(asked);
  } catch (e) {
    throw errors.badRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
  return ms > 0 && ms < maximumMs ? ms : maximumMs;
}

const ENDED = Symbol('request context ended');

/**
 * Upstream's answer (baseTimeoutWriter.timeout): NewTimeoutError's Status encoded without its
 * TypeMeta, and no Content-Type set, so Go sniffs text/plain. Clients therefore take it as an
 * unstructured 504: kubectl says "the server was unable to return a response in the time
 * allotted, but may still be processing the request".
 */
function answerTimeout(ctx: Koa.Context): void {
  // Headers already out: the rest cannot become a 504 (upstream's ErrAbortHandler).
  if (ctx.headerSent) return abortAnswer(ctx);
  ctx.status = 504;
  ctx.type = 'text/plain; charset=utf-8';
  // An HTTP/1.1 body still arriving was given up (readBody): the rest of it would be read as the
  // next request, so the connection ends after this answer, as Go's server closes one whose body
  // it did not read.
  if (ctx.req.httpVersionMajor === 1 && !ctx.req.complete) ctx.set('Connection', 'close');
  ctx.body = goJsonEncode({ metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504 });
}

/** Middleware after request info (ctx.state.info, .query) and before authentication, as upstream orders it. */
export function requestDeadline(maximumMs: number, log: Logger, terminations?: TerminationMetrics): Koa.Middleware<{ info: RequestInfo; query: URLSearchParams }> {
  return async (ctx, next) => {
    if (isLongRunning(ctx.state.info)) {
      // No deadline, but a context all the same: an authorizer's webhook asked about a watch stops
      // when the watch's client goes away, as upstream's request context is cancelled then.
      const context = requestSignal(ctx as unknown as Koa.Context);
      (ctx.state as { signal?: AbortSignal }).signal = context.signal;
      try { return await next(); } finally { context.release(); }
    }
    const ms = requestTimeoutMs(ctx.state.query, maximumMs);
    // The request context's deadline, for the calls the request makes (admission webhooks bound theirs by it).
    (ctx.state as { deadline?: number }).deadline = Date.now() + ms;
    const context = requestSignal(ctx as unknown as Koa.Context, ms);
    // The store makes no write once it has ended (core/registry/store.ts); writes stop waiting (finisher.ts).
    (ctx.state as { signal?: AbortSignal }).signal = context.signal;
    const ended = new Promise<typeof ENDED>((resolve) => context.signal.addEventListener('abort', () => resolve(ENDED), { once: true }));
    const terminated = (): void => {
      // Counted whether the deadline passed or the client went away: upstream's filter sees one ended context.
      if (terminations) recordTermination(ctx as unknown as Koa.Context, ctx.state.info, ctx.state.query, terminations, 504);
    };
    const work = next();
    let timedOut = false;
    try {
      timedOut = await Promise.race([work, ended]) === ENDED;
    } finally {
      // The answer, a thrown error's included, is written once this returns; the deadline covers it (answer-deadline.ts).
      if (!timedOut) {
        untilWritten(ctx as unknown as Koa.Context, context, () => {
          logPostTimeoutActivity(log, ctx.method, ctx.path, Promise.resolve(), performance.now());
          terminated();
        });
      }
    }
    if (!timedOut) return;
    try {
      // Once the client has its 504, how the work ends is only logged.
      logPostTimeoutActivity(log, ctx.method, ctx.path, work, performance.now());
      terminated();
      answerTimeout(ctx as unknown as Koa.Context);
    } finally {
      context.release();
    }
  };
}
