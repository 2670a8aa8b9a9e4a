// Upstream's WithCacheControl: every answer from inside the chain (a 401, a 403, a 404, a timeout
// included) says `no-cache, private` unless its handler says otherwise. It sits inside WithRetryAfter,
// so the shutdown 429 goes without it. The header is set before the handler runs, as upstream's is,
// so a handler that sets its own (a watch, a hashed OpenAPI document) replaces it.
import type Koa from 'koa';

const DEFAULT_CACHE_CONTROL = 'no-cache, private';

export const withCacheControl: Koa.Middleware = async (ctx, next) => {
  if (!ctx.res.hasHeader('Cache-Control')) ctx.set('Cache-Control', DEFAULT_CACHE_CONTROL);
  await next();
};
