// A koa app's request listener for node:http2's compatibility layer as well as node:http/https.
//
// koa sends nothing for a response it thinks it cannot write: `ctx.writable` false makes respond()
// and ctx.onerror() return without ending it. koa reads that from `res.socket.writable`, which the
// compatibility layer answers with the HTTP/2 stream's own `writable`; and node:http2 ends the
// writable side of a HEAD request's stream as soon as it arrives (no body may follow). So every
// HEAD over HTTP/2 went unanswered — no HEADERS frame, a client waiting forever (koajs/koa#1547) —
// while HTTP/1.1 worked. For such a stream the question is whether it is still open.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type Koa from 'koa';

type Listener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => Promise<void>;

const fixed = new WeakSet<object>();

export function koaCallback(app: Koa<any, any>): Listener {
  if (!fixed.has(app.response)) {
    fixed.add(app.response);
    const koaWritable = getterOf(app.response, 'writable');
    // app.response is this app's own prototype of every ctx.response: other apps keep koa's getter.
    Object.defineProperty(app.response, 'writable', {
      configurable: true,
      get(this: Koa.Response): boolean {
        const stream = (this.res as unknown as Partial<Http2ServerResponse>).stream;
        if (stream && this.req.method === 'HEAD') return !this.res.writableEnded && !stream.closed && !stream.destroyed;
        return koaWritable.call(this) as boolean;
      },
    });
  }
  return app.callback() as Listener;
}

function getterOf(object: object, name: string): () => unknown {
  for (let o: object | null = object; o; o = Object.getPrototypeOf(o) as object | null) {
    const get = Object.getOwnPropertyDescriptor(o, name)?.get;
    if (get) return get;
  }
  throw new TypeError(`no getter ${name}`);
}
