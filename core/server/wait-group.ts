// Upstream's WithWaitGroup once the drain has begun (NotAcceptingNewRequest): a request that still
// reaches the server (an HTTP/2 stream opened before the client read the GOAWAY, a request sent
// on a connection the drain is about to close) is not started but answered 503 "apiserver is
// shutting down" with `Retry-After: 1`, so the client retries, likely on another server. Watches
// and the other long-running requests are not counted and pass; so do health probes and
// /metrics (isRequestExemptFromRetryAfter), and the server's own loopback client.
import type Koa from 'koa';
import { errors } from '../api/errors.js';
import { isLongRunning } from './request-deadline.js';
import type { RequestInfo } from './request-info.js';

const EXEMPT_PATH_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];
/** Upstream's is kube-apiserver/: the user agent of the API server's own loopback client. */
const LOOPBACK_USER_AGENT_PREFIX = 'plat-apiserver/';

const SHUTTING_DOWN = `${JSON.stringify(errors.serviceUnavailable('apiserver is shutting down').status)}\n`;

/** Middleware after request info, before the request deadline and authentication, as upstream orders it. */
export function refuseWhileDraining(draining: AbortSignal): Koa.Middleware<{ info: RequestInfo }> {
  return async (ctx, next) => {
    if (!draining.aborted || isLongRunning(ctx.state.info) || isExempt(ctx)) return next();
    // Written as waitGroupWriteRetryAfterToResponse does: always JSON, whatever was asked for.
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    ctx.set('Content-Type', 'application/json');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = SHUTTING_DOWN;
  };
}

function isExempt(ctx: Koa.Context): boolean {
  return (ctx.get('user-agent') ?? '').startsWith(LOOPBACK_USER_AGENT_PREFIX)
    || EXEMPT_PATH_PREFIXES.some((p) => ctx.path.startsWith(p));
}
