// The debugging handlers upstream's API server and controller manager install when --profiling is
// on (routes.Profiling and routes.DebugFlags with "v"): /debug/pprof/ (V8's profiles under
// net/http/pprof's paths, /debug/pprof redirecting there) and PUT /debug/flags/v. Both are
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
    { name: CONTENTION_PROFILING_FLAG, type: 'bool', section, help: help.contention,
      validate: (v) => (v === true ? 'not supported: block profiling is Go\'s (runtime.SetBlockProfileRate) and V8 has no block profile' : undefined) },
  ];
}

/** Answers a debugging path; false when the path is not one. */
export async function serveDebug(ctx: Koa.Context, logger: Logger, shutdown: AbortSignal): Promise<boolean> {
  const path = ctx.path;
  if (path === '/debug/pprof') {
    // Go's redirectTo: 301 to the index.
    ctx.status = 301;
    ctx.redirect(PPROF_PREFIX);
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
  return false;
}
