// The debugging handlers upstream's API server and controller manager install when --profiling is
// on (routes.Profiling and routes.DebugFlags with "v"): /debug/pprof/ (V8's profiles under
// net/http/pprof's paths, /debug/pprof redirecting there) and /debug/flags (PUT /debug/flags/v,
// an index page for the rest). Both are
// unlisted paths behind the server's authentication and authorization, as upstream's.
import type Koa from 'koa';
import type { FlagSpec } from '../../flags/types.js';
import type { Logger } from '../../log.js';
import { serveDebugFlagV } from './debug-flags.js';
import { PPROF_PREFIX, servePprof } from './pprof.js';

export const PROFILING_FLAG = 'profiling';
export const CONTENTION_PROFILING_FLAG = 'contention-profiling';

/**
 * --profiling and --contention-profiling as both components define them. Contention profiling is Go's
 * block profile (runtime.SetBlockProfileRate); V8 has nothing like it, so asking for it is refused.
 */
export function profilingFlags(section: string, help: { profiling: string; contention: string }): FlagSpec[] {
  return [
    { name: PROFILING_FLAG, type: 'bool', default: true, section, help: help.profiling },
    { name: CONTENTION_PROFILING_FLAG, type: 'bool', section, help: `${help.contention} (not supported: V8 has no block profile; only false is accepted)`,
      validate: (v) => (v === true ? 'not supported: block profiling is Go\'s (runtime.SetBlockProfileRate) and V8 has no block profile' : undefined) },
  ];
}

/** Answers a debugging path; false when the path is not one. */
export async function serveDebug(ctx: Koa.Context, logger: Logger, shutdown: AbortSignal): Promise<boolean> {
  const path = ctx.path;
  if (path === '/debug/pprof') {
    goRedirect(ctx, PPROF_PREFIX);
    return true;
  }
  if (path.startsWith(PPROF_PREFIX)) {
    await servePprof(ctx, shutdown);
    return true;
  }
  if (path === '/debug/flags/v') {
    await serveDebugFlagV(ctx, logger);
    return true;
  }
  if (path === '/debug/flags' || path.startsWith('/debug/flags/')) {
    // routes.DebugFlags' Index for any other path under it; Go sniffs the type from `<html>`.
    ctx.status = 200;
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.body = FLAGS_INDEX;
    return true;
  }
  return false;
}

/** The index template of routes.DebugFlags, executed with the one flag both components register. */
const FLAGS_INDEX = '<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n<table>\n'
  + '\n<tr>v<br>\n\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n';

/** Go's http.Redirect with 302 (routes.Profiling's redirectTo): a short HTML body for GET only. */
function goRedirect(ctx: Koa.Context, to: string): void {
  ctx.status = 302;
  ctx.set('Location', to);
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.body = null;
    return;
  }
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.body = `<a href="${to}">Found</a>.\n\n`;
}
