// promhttp's answer to a scrape, for every plat endpoint that serves /metrics: the text format,
// gzipped when the client accepts it.
import { gzipSync } from 'node:zlib';
import type Koa from 'koa';
import { TEXT_CONTENT_TYPE } from './exposition.js';

export function sendMetrics(ctx: Koa.Context, text: string): void {
  ctx.status = 200;
  ctx.set('Content-Type', TEXT_CONTENT_TYPE);
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzipSync(text);
  } else {
    ctx.body = text;
  }
}
