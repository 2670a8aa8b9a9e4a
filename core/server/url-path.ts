// Go's servers hand handlers req.URL.Path: the request path with every %XX escape decoded (%2F
// too), and refuse a path with a malformed escape before any handler runs. Upstream's routing,
// authorization (a nonResourceURLs rule for /healthz covers /heal%74hz) and messages (the path in a
// 403) all see that decoded path; plat's servers use it the same way.
import type Koa from 'koa';

const MALFORMED_ESCAPE = /%(?![0-9a-fA-F]{2})/;

/** net/url's unescape in path mode; undefined for a malformed escape ("%zz", a trailing "%"). */
export function unescapeGoPath(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  if (MALFORMED_ESCAPE.test(raw)) return undefined;
  // Runs of escapes decode together, so that multi-byte UTF-8 sequences come out whole.
  return raw.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/**
 * First middleware of each server: from here on ctx.path is Go's req.URL.Path. A malformed escape
 * gets what Go's http server writes for a request line it cannot parse.
 */
export async function goRequestPath(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  const path = unescapeGoPath(ctx.path);
  if (path === undefined) {
    ctx.status = 400;
    ctx.type = 'text/plain; charset=utf-8';
    // HTTP/2 forbids the header; Go's HTTP/1 server closes the connection after this answer.
    if (ctx.req.httpVersionMajor < 2) ctx.set('Connection', 'close');
    ctx.body = '400 Bad Request';
    return;
  }
  // Shadows the request's own getter, which re-parses the raw URL on every read.
  if (path !== ctx.path) Object.defineProperty(ctx, 'path', { value: path, enumerable: true, writable: true, configurable: true });
  await next();
}
