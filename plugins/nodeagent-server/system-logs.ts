// /logs/ (enableSystemLogHandler): upstream's logServer. Without enableSystemLogQuery it is the file
// server of the log directory; with it, a request carrying node-log-query parameters is a query
// (services through journalctl or their files, or one file), and any other request still reaches
// the file server, as upstream's fallback does.
import type Koa from 'koa';
import { serveLogPath } from './log-files.js';
import { parseNodeLogQuery, queryErrorText, serveServiceLogs, validateNodeLogQuery } from './node-log-query.js';
import { httpError } from './responses.js';

export const LOGS_PREFIX = '/logs/';

export interface SystemLogOptions {
  /** The node's log directory (upstream: /var/log/). */
  readonly root: string;
  readonly query: boolean;
  /** The journalctl binary (a name looked up in PATH, or a path). */
  readonly journalctl: string;
}

export async function serveSystemLogs(ctx: Koa.Context, o: SystemLogOptions): Promise<void> {
  const rel = ctx.path.slice(LOGS_PREFIX.length);
  if (o.query) {
    const parsed = parseNodeLogQuery(new URLSearchParams(ctx.querystring));
    if (parsed.errors.length) return httpError(ctx, 400, queryErrorText(parsed.errors));
    const q = parsed.query;
    if (q) {
      if (rel !== '') return httpError(ctx, 406, 'path not allowed in query mode');
      const errs = await validateNodeLogQuery(q, o.root);
      if (errs.length) return httpError(ctx, 406, queryErrorText(errs));
      if (q.services.length) return serveServiceLogs(ctx, q, o.root, o.journalctl);
      return serveLogPath(ctx, o.root, q.files[0]!.replace(/\\/g, '/'));
    }
  }
  // ctx.path is already decoded (core/server/url-path.ts), as Go's FileServer reads r.URL.Path.
  return serveLogPath(ctx, o.root, rel);
}
