// The log line of a 401 for a request that presented no credential at all, when anonymous access
// is off, shared by every HTTPS endpoint plat serves (API server, controller manager, node agent).
// Upstream logs nothing for it (no authenticator returned an error); a health probe or a scanner
// is not worth an operator's attention, so plat's line waits for -v 2. A credential that was
// refused is the union's error instead, logged as upstream's `Unable to authenticate the request`.
import type { Logger } from '../log.js';

/** What the line names of a request: a Koa context has these fields. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly req: { readonly socket?: { readonly remoteAddress?: string | undefined } | null };
}

export function logUnauthenticated(log: Logger, ctx: LoggedRequest): void {
  log.v(2).info('request not authenticated', {
    method: ctx.method, path: ctx.path, remote: ctx.req.socket?.remoteAddress ?? '',
    refusedBy: ['no credentials and anonymous access is off'],
  });
}
