// Upstream's WithWatchTerminationDuringShutdown and RateLimitedSafeWaitGroup: watches are counted,
// told to end when the wait begins, and a watch arriving after that is answered 503; a watch that
// does not end within the grace period is reported, as Wait's activeWatchesAfter and its error.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import { requestInfo, type RequestInfo } from '../../core/server/request-info.js';
import { WatchWaitGroup, withWatchTermination, type WatchTermination } from '../../core/server/watch-termination.js';

const SHUTTING_DOWN = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"apiserver is shutting down","reason":"ServiceUnavailable","code":503}\n';

describe('watch termination during shutdown', () => {
  const wg = new WatchWaitGroup();
  let server: http.Server;
  let base = '';
  let reached = 0;
  before(async () => {
    const app = new Koa<{ info: RequestInfo; watchTermination?: WatchTermination }>();
    app.use(async (ctx, next) => { ctx.state.info = requestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring)); await next(); });
    app.use(withWatchTermination(wg));
    app.use(async (ctx) => {
      const t = ctx.state.watchTermination;
      if (t) reached++;
      // A watch ends when told to; the one at /stuck ignores it.
      if (t && !ctx.path.endsWith('/stuck')) await new Promise<void>((resolve) => t.shuttingDown.addEventListener('abort', () => resolve(), { once: true }));
      if (t && ctx.path.endsWith('/stuck')) await new Promise(() => undefined);
      ctx.body = t ? 'watch ended' : 'served';
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => { server.closeAllConnections(); server.close(); });

  it('ends the watches when the wait begins, refuses new ones with 503, and reports the one that does not end', async () => {
    const ending = [0, 1, 2].map(() => fetch(`${base}/api/v1/namespaces/default/secrets?watch=true`).then((r) => r.text()));
    const stuck = new AbortController();
    void fetch(`${base}/api/v1/namespaces/default/stuck?watch=true`, { signal: stuck.signal }).catch(() => undefined);
    assert.equal(await (await fetch(`${base}/api/v1/namespaces/default/secrets`)).text(), 'served', 'a list is not counted');
    for (let i = 0; i < 500 && reached < 4; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(reached, 4, 'the four watches reached the handler');
    const result = await wg.wait(300);
    assert.deepEqual(await Promise.all(ending), ['watch ended', 'watch ended', 'watch ended']);
    assert.deepEqual(result, { before: 4, after: 1, error: 'context deadline exceeded' });

    const late = await fetch(`${base}/api/v1/namespaces/default/secrets?watch=true`);
    assert.equal(late.status, 503);
    assert.equal(late.headers.get('retry-after'), '1');
    assert.equal(await late.text(), SHUTTING_DOWN);
    assert.equal(await (await fetch(`${base}/api/v1/namespaces/default/secrets`)).text(), 'served', 'other requests are not this filter\'s');
    stuck.abort();
  });

  it('the wait ends only once every watch has been released by the pacing, not when the last one stopped', async () => {
    const group = new WatchWaitGroup();
    const terminations = Array.from({ length: 12 }, () => group.add()!);
    let released = 0;
    // Each watch stops as soon as it is told, and its end then waits for its turn.
    for (const t of terminations) t.shuttingDown.addEventListener('abort', () => { void t.done().then(() => { released++; }); }, { once: true });
    const result = await group.wait(60_000);
    assert.equal(released, 12, 'every end was released before the wait said the watches had drained');
    assert.deepEqual(result, { before: 12, after: 0 });
  });
});

