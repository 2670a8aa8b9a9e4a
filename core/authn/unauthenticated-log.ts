// The log line of a 401, shared by every HTTPS endpoint plat serves (API server, controller
// manager, node agent). Presented credentials that failed are worth an operator's attention and
// name the authenticator and its reason (never the credential); a request without any (a health
// probe, a scanner) is not, and upstream logs nothing for it: that line waits for -v 2.
import type { Logger } from '../log.js';

/** What the line names of a request: a Koa context has these fields. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly req: { readonly socket?: { readonly remoteAddress?: string | undefined } | null };
}

export function logUnauthenticated(log: Logger, ctx: LoggedRequest, refusedBy: readonly string[]): void {
  (refusedBy.length ? log : log.v(2)).info('request not authenticated', {
    method: ctx.method, path: ctx.path, remote: ctx.req.socket?.remoteAddress ?? '',
    refusedBy: refusedBy.length ? refusedBy : ['no credentials and anonymous access is off'],
  });
}
