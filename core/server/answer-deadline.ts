// The request deadline covers writing the answer too. koa writes the body after the middleware
// chain has returned, so a client that never reads held its whole answer (a 42 MB list, and
// node's copies of it in the socket's or session's queue) for as long as it kept the connection:
// ten such clients took a server from 130 MB to 1.7 GB, past --request-timeout and for good.
// Upstream's timeout filter (baseTimeoutWriter.timeout) panics with http.ErrAbortHandler when its
// deadline passes after the headers were written: net/http then closes an HTTP/1.1 connection and
// resets an HTTP/2 stream (RST_STREAM INTERNAL_ERROR), and the rest of the session goes on. Go gets
// there once the handler's blocked write returns; plat's answer is already whole in memory, so it
// cuts at the deadline itself.
import http2 from 'node:http2';
import type { Http2ServerResponse } from 'node:http2';
import type Koa from 'koa';
import type { RequestSignal } from './request-signal.js';

/** Closes an HTTP/1.1 answer's connection, or resets an HTTP/2 answer's stream only. */
export function abortAnswer(ctx: Koa.Context): void {
  const stream = (ctx.res as unknown as Partial<Http2ServerResponse>).stream;
  if (stream) {
    if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  ctx.req.socket.destroy();
}

/**
 * Keeps the request's context until its answer is written: when it ends first (the deadline, or
 * the client gone: upstream's filter sees one ended context either way) the answer is cut and
 * `onEnded` reports it. The context is released once the answer is written.
 */
export function untilWritten(ctx: Koa.Context, context: RequestSignal, onEnded: () => void): void {
  const res = ctx.res;
  if (res.writableFinished) return context.release();
  const written = (): void => {
    context.signal.removeEventListener('abort', cut);
    res.off('close', closed);
    context.release();
  };
  const cut = (): void => {
    context.signal.removeEventListener('abort', cut);
    res.off('finish', written);
    res.off('close', closed);
    context.release();
    if (res.writableFinished) return;
    abortAnswer(ctx);
    onEnded();
  };
  // requestSignal ends the context for a close only before res.end(); a paced answer is ended
  // later, and a close before its last byte is the client gone as well.
  const closed = (): void => { if (!res.writableFinished) cut(); };
  res.once('finish', written);
  res.once('close', closed);
  context.signal.addEventListener('abort', cut, { once: true });
}
