// Upstream's WithRetryAfter, installed with --shutdown-send-retry-after: from NotAcceptingNewRequest
// on, the server keeps listening while the requests in flight drain, and answers every new request
// (long-running ones included, on new connections and on open ones) 429 with `Retry-After: 5` and
// `Connection: close`, so clients go to another server instead of meeting a closed port. Health
// probes, /metrics and the server's own loopback client are exempt, as they are from the wait
// groups' refusals: both must exempt the same requests, or a drain could wait on a refused one.
import type http2 from 'node:http2';
import type Koa from 'koa';

const EXEMPT_PATH_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];
/** Upstream's is kube-apiserver/: the user agent of the API server's own loopback client. */
const LOOPBACK_USER_AGENT_PREFIX = 'plat-apiserver/';
/** http.Error's body: the message and a newline. */
const SHUTTING_DOWN_TEXT = 'The apiserver is shutting down, please try again later.\n';

/** isRequestExemptFromRetryAfter. */
export function isExemptFromRetryAfter(ctx: Koa.Context): boolean {
  return (ctx.get('user-agent') ?? '').startsWith(LOOPBACK_USER_AGENT_PREFIX)
    || EXEMPT_PATH_PREFIXES.some((p) => ctx.path.startsWith(p));
}

/** Middleware before the wait groups: `notAccepting` is NotAcceptingNewRequest. */
export function sendRetryAfter(notAccepting: AbortSignal): Koa.Middleware {
  return async (ctx, next) => {
    if (!notAccepting.aborted || isExemptFromRetryAfter(ctx)) return next();
    // HTTP/2 has no Connection header (RFC 7540 8.1.2.2): Go's server takes the header as "send a
    // GOAWAY and close once idle", and so does this.
    if (ctx.req.httpVersionMajor >= 2) (ctx.req as unknown as http2.Http2ServerRequest).stream.session?.close();
    else ctx.set('Connection', 'close');
    ctx.set('Retry-After', '5');
    // As http.Error writes it.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.status = 429;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = SHUTTING_DOWN_TEXT;
  };
}
