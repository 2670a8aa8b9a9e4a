// net/http's maxPostHandlerReadBytes: a handler that answers without reading its request body
// leaves the server to discard what is left before the connection can carry another request. Go
// does that for at most 256 KiB; with more to come it closes the connection after the answer
// ("requestTooLarge"). Node would discard for as long as the client sends, so a client refused at
// once (401, 403, 413) could hold the connection, its TLS state and a file descriptor, for good by
// sending its declared megabytes a byte at a time. HTTP/2 ends such a stream with a reset instead.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';

const MAX_POST_HANDLER_READ_BYTES = 256 << 10;

/** What the request declared it would send (unknown for a chunked body, which Go does not bound either). */
function declared(req: IncomingMessage): number | undefined {
  const v = req.headers['content-length'];
  return v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : undefined;
}

export const closeAfterUnreadBody: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    const req = ctx.req as IncomingMessage;
    if (req.httpVersionMajor === 1 && !req.complete && !ctx.res.headersSent) {
      // A body the handler did not finish reading is still owed whole as far as the answer goes.
      const left = declared(req);
      if (left !== undefined && left >= MAX_POST_HANDLER_READ_BYTES) ctx.set('Connection', 'close');
    }
  }
};
