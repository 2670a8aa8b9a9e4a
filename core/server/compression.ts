// APIResponseCompression (beta, on by default in 1.32), as upstream's deferredResponseWriter does
// it: an API object's encoding (what respond.ts writes: resources, lists, Tables, Status errors,
// discovery) longer than 128 KiB goes out gzipped at level 1 when the request's Accept-Encoding
// names gzip, with `Vary: Accept-Encoding`. Raw JSON (/version), health texts and watch streams
// are never compressed. The compression runs on libuv's pool, not on the event loop.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type Koa from 'koa';

const GZIP_THRESHOLD_BYTES = 128 * 1024;
const gzipAsync = promisify(gzip);

/**
 * negotiateContentEncoding: the header's comma-separated tokens, trimmed; only a bare `gzip`
 * counts (`gzip;q=0.5` does not, as upstream compares the whole token).
 */
export function acceptsGzip(header: string | undefined): boolean {
  return !!header && header.split(',').some((token) => token.trim() === 'gzip');
}

export function compressResponses(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (!(ctx.state as { serializedObject?: boolean }).serializedObject || ctx.method === 'HEAD') return;
    const body: unknown = ctx.body;
    if (typeof body !== 'string' || !acceptsGzip(ctx.get('accept-encoding'))) return;
    if (Buffer.byteLength(body) <= GZIP_THRESHOLD_BYTES) return;
    const type = ctx.response.get('Content-Type');
    ctx.body = await gzipAsync(body, { level: 1 });
    ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', 'gzip');
    ctx.append('Vary', 'Accept-Encoding');
  };
}
