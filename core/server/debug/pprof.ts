// /debug/pprof/ (the node agent's enableProfilingHandler, the API server's and controller manager's
// --profiling), with net/http/pprof's paths and error texts but V8's
// formats (v8-profiler.ts): `profile?seconds=N` a CPU profile (default 30 s, as Go's; at most
// MAX_PROFILE_SECONDS), `heap` the sampled live heap, `cmdline` the command line NUL-separated,
// the index at the root. Go-only profiles (goroutine, block, mutex, threadcreate, allocs, trace,
// symbol) are Go's "Unknown profile".
import type Koa from 'koa';
import { ProfilerBusyError, v8Profiler } from './v8-profiler.js';
import { linkedAbort } from '../../client/linked-abort.js';

export const PPROF_PREFIX = '/debug/pprof/';
export const DEFAULT_PROFILE_SECONDS = 30;
/** Upstream's bound is the server's 4-hour write timeout; no plat process needs a profile that long. */
export const MAX_PROFILE_SECONDS = 600;

const INDEX = `<html>
<head>
<title>/debug/pprof/</title>
</head>
<body>
/debug/pprof/
<br>
<p>Set debug=1 as a query parameter to export in legacy text format (not available: the profiles are V8's)</p>
<br>
Types of profiles available:
<table>
<thead><td>Count</td><td>Profile</td></thead>
<tr><td></td><td><a href='heap'>heap</a></td></tr>
</table>
<a href="profile">profile</a>
<br>
<br>
Profile Descriptions:
<ul>
<li><div class=profile-name>cmdline: </div> The command line invocation of the current program</li>
<li><div class=profile-name>heap: </div> A sampling of memory allocations of live objects (V8 sampling heap profile, .heapprofile JSON).</li>
<li><div class=profile-name>profile: </div> CPU profile (V8 .cpuprofile JSON). You can specify the duration in the seconds GET parameter.</li>
</ul>
</body>
</html>
`;

/** net/http/pprof's serveError (http.Error's plain text): marks the answer as pprof's and drops the download header. */
function serveError(ctx: Koa.Context, code: number, text: string): void {
  ctx.set('X-Go-Pprof', '1');
  ctx.remove('Content-Disposition');
  ctx.status = code;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${text}\n`;
}

function download(ctx: Koa.Context, filename: string, body: unknown): void {
  ctx.status = 200;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'application/json';
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = JSON.stringify(body);
}

/** `seconds` as Go's pprof.Profile reads it: anything not a positive integer is the default. */
export function profileSeconds(raw: string | null): number {
  const n = raw !== null && /^[+-]?[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_PROFILE_SECONDS;
}

export async function servePprof(ctx: Koa.Context, shutdown: AbortSignal): Promise<void> {
  const name = ctx.path.slice(PPROF_PREFIX.length);
  const query = new URLSearchParams(ctx.querystring);
  switch (name) {
    case '':
      ctx.status = 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = INDEX;
      return;
    case 'cmdline':
      ctx.status = 200;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = process.argv.join('\x00');
      return;
    case 'profile': {
      const seconds = profileSeconds(query.get('seconds'));
      if (seconds > MAX_PROFILE_SECONDS) return serveError(ctx, 400, `profile duration exceeds the server's limit of ${MAX_PROFILE_SECONDS} seconds`);
      // The client going away or the server stopping ends the profile early, as Go's sleep(r, d).
      // Not AbortSignal.any: each profile would leave a record on the server's signal (linked-abort.ts).
      const gone = linkedAbort(shutdown);
      ctx.res.once('close', () => { if (!ctx.res.writableFinished) gone.abort(undefined); });
      let profile: unknown;
      try {
        profile = await v8Profiler.cpuProfile(seconds * 1000, gone.signal);
      } catch (e) {
        if (e instanceof ProfilerBusyError) return serveError(ctx, 500, `Could not enable CPU profiling: ${e.message}`);
        throw e;
      } finally {
        gone.unlink();
      }
      if (profile === undefined) return serveError(ctx, 503, 'profile interrupted');
      return download(ctx, 'profile.cpuprofile', profile);
    }
    case 'heap':
      return download(ctx, 'heap.heapprofile', await v8Profiler.heapProfile());
    default:
      return serveError(ctx, 404, 'Unknown profile');
  }
}
