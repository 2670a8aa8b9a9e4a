// --debug-socket-path: upstream's DebugSocket serves the debugging handlers (/debug/pprof/...,
// /debug/flags, PUT /debug/flags/v) on a unix domain socket, with no authentication or
// authorization, whether --profiling is on or not, from the start of the server's run until its
// shutdown begins; anything else there is Go's 404. Whoever can connect to the file can profile
// the process and change its log verbosity, so the file is made owner-only (0600) whatever the
// umask: upstream's Go listener takes the umask's mode, owner-only in practice under the usual 022
// (connecting needs write permission), open to others under 000 or 002.
//
// Upstream removes whatever is at the path first (os.Remove). plat removes only a socket, found by
// lstat so a symlink is never followed, and refuses to start over anything else: a mistyped path
// must not delete an operator's file. Upstream only logs when it cannot listen; plat refuses to
// start, in upstream's words, as an operator who asked for the socket would want to know.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type Koa from 'koa';
import { ERRNO_TEXT, isNotExist, osErrorText } from '../../go-os-error.js';
import type { Logger } from '../../log.js';
import { koaCallback } from '../koa-callback.js';
import { koaClass } from '../koa-class.js';
import { goRequestPath } from '../url-path.js';
import { serveDebug } from './routes.js';
import { v8Profiler } from './v8-profiler.js';

export const DEBUG_SOCKET_FLAG = 'debug-socket-path';
/** Only the owner (the user plat runs as) may connect. */
const SOCKET_UMASK = 0o177;

export class DebugSocketError extends Error {
  override readonly name = 'DebugSocketError';
}

export interface DebugSocket {
  /** Stops listening (the file is removed) and cuts the connections open, as Go's http.Server.Close. */
  close(): Promise<void>;
}

/** A socket left by an earlier run is removed; any other file at the path is refused. */
function removeStaleSocket(socketPath: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch (e) {
    if (isNotExist(e)) return;
    throw new DebugSocketError(`failed to remove (${socketPath}): ${osErrorText('lstat', socketPath, e)}`);
  }
  if (!stat.isSocket()) throw new DebugSocketError(`${JSON.stringify(socketPath)} exists and is not a socket: refusing to remove it (only a stale socket there is replaced)`);
  try {
    fs.unlinkSync(socketPath);
  } catch (e) {
    if (!isNotExist(e)) throw new DebugSocketError(`failed to remove (${socketPath}): ${osErrorText('remove', socketPath, e)}`);
  }
}

/** Go's errno text; libuv turns bind's ENOENT (a missing directory) into EACCES, which Go does not. */
function bindErrorText(socketPath: string, e: unknown): string {
  let code = (e as NodeJS.ErrnoException).code ?? '';
  if (code === 'EACCES' && !fs.existsSync(path.dirname(socketPath))) code = 'ENOENT';
  return ERRNO_TEXT[code] ?? (e as Error).message;
}

function debugApp(log: Logger, stopped: AbortSignal): Koa {
  const Koa = koaClass();
  const app = new Koa();
  app.silent = true;
  app.use(goRequestPath);
  app.use(async (ctx) => {
    if (await serveDebug(ctx, log, stopped)) return;
    // Go's http.NotFound, from the socket's own ServeMux.
    ctx.status = 404;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = '404 page not found\n';
  });
  return app;
}

/** Serves the debugging handlers on a unix socket at `socketPath`. */
export async function listenDebugSocket(socketPath: string, log: Logger): Promise<DebugSocket> {
  removeStaleSocket(socketPath);
  const stopped = new AbortController();
  const server = http.createServer(koaCallback(debugApp(log, stopped.signal)));
  // The bind happens inside listen(), synchronously, so the umask holds for it alone.
  const umask = process.umask(SOCKET_UMASK);
  try {
    server.listen(socketPath);
  } finally {
    process.umask(umask);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (e) {
    throw new DebugSocketError(`listen error (${socketPath}): listen unix ${socketPath}: bind: ${bindErrorText(socketPath, e)}`);
  }
  server.on('error', (e) => log.error('debug socket', { path: socketPath, err: e.message }));
  // Heap sampling from now on, so /debug/pprof/heap covers what is alive since start-up.
  await v8Profiler.acquire();
  log.info('Serving the debug handlers, unauthenticated, on a unix socket', { path: socketPath });
  let closing: Promise<void> | undefined;
  return {
    close: () => closing ??= (async () => {
      stopped.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await v8Profiler.release();
    })(),
  };
}
