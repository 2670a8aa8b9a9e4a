// Answers longer than one chunk are written a chunk at a time, the next only once the connection has
// taken the last (koa pipes a stream body with backpressure), as Go's server writes what a handler
// writes, held by per-stream flow control. Written whole (koa's res.end(body)), a 42 MB list sat
// in its HTTP/2 session's send queue at once; node counts that queue against the session's memory
// limit (maxSessionMemory) and refuses every new stream on the connection past it, with
// RST_STREAM ENHANCE_YOUR_CALM: a client that multiplexes one connection, as client-go does, had
// its small requests reset while a large list went out. Chunked, each stream queues at most
// PACED_CHUNK_BYTES (listen.ts sizes the limit from that). The bytes and the headers are those of
// the whole answer (Content-Length stays), so HTTP/1.1 gets the same answer, paced by its socket.
import { Readable } from 'node:stream';
import type Koa from 'koa';

export const PACED_CHUNK_BYTES = 64 * 1024;

function* chunksOf(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += PACED_CHUNK_BYTES) yield body.subarray(at, at + PACED_CHUNK_BYTES);
}

/** Outermost middleware: after every other one has set (and perhaps gzipped) the answer. */
export const paceLargeBodies: Koa.Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (ctx.method === 'HEAD' || !(typeof body === 'string' || Buffer.isBuffer(body))) return;
  if ((typeof body === 'string' ? Buffer.byteLength(body) : body.length) <= PACED_CHUNK_BYTES) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  // koa drops Content-Length for a stream body (and keeps the type already set): the length is known.
  ctx.body = Readable.from(chunksOf(bytes), { objectMode: false });
  ctx.length = bytes.length;
};
