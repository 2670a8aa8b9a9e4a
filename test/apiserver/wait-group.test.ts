// Upstream's WithWaitGroup: non-long-running requests are counted while they run, and the drain's
// wait resolves once those in flight have ended; from the wait on, a non-long-running request that
// still reaches the server is answered 503 "apiserver is shutting down" with Retry-After: 1, always
// as JSON; watches, health probes, /metrics and the server's own loopback client pass.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import { requestInfo, type RequestInfo } from '../../core/server/request-info.js';
import { RequestWaitGroup, withWaitGroup } from '../../core/server/wait-group.js';

const SHUTTING_DOWN = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"apiserver is shutting down","reason":"ServiceUnavailable","code":503}\n';

describe('requests while draining', () => {
  const wg = new RequestWaitGroup();
  let release: (() => void) | undefined;
  let releaseWatch: (() => void) | undefined;
  let server: http.Server;
  let base = '';
  before(async () => {
    const app = new Koa<{ info: RequestInfo }>();
    app.use(async (ctx, next) => { ctx.state.info = requestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring)); await next(); });
    app.use(withWaitGroup(wg));
    app.use(async (ctx) => {
      if (ctx.path === '/slow') await new Promise<void>((resolve) => { release = resolve; });
      if (ctx.query['watch'] === 'true' && ctx.path.endsWith('/held')) await new Promise<void>((resolve) => { releaseWatch = resolve; });
      ctx.body = 'served';
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => { server.close(); });

  it('serves everything before the drain', async () => {
    const r = await fetch(`${base}/api/v1/namespaces/default/secrets`);
    assert.equal(await r.text(), 'served');
  });

  it('waits for the requests in flight, counting only non-long-running ones', async () => {
    const watching = fetch(`${base}/api/v1/namespaces/default/held?watch=true`).then((r) => r.text());
    const slow = fetch(`${base}/slow`).then((r) => r.text());
    for (let i = 0; i < 200 && !(release && releaseWatch); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(wg.count, 1, 'the slow request is counted, the watch is not');
    let waited = false;
    const waiting = wg.wait().then(() => { waited = true; });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(waited, false, 'the wait holds while a request is in flight');
    release!();
    assert.equal(await slow, 'served', 'the request in flight finishes');
    await waiting;
    releaseWatch!();
    assert.equal(await watching, 'served');
  });

  it('answers the rest 503 with a Status once it has begun', async () => {
    const cases: [string, string, Record<string, string>, boolean][] = [
      ['list', '/api/v1/namespaces/default/secrets', {}, false],
      ['create', '/apis/certificates.platform/v1/certificatesigningrequests', {}, false],
      ['discovery', '/apis', { accept: 'application/yaml' }, false],
      ['watch', '/api/v1/namespaces/default/secrets?watch=true', {}, true],
      ['healthz', '/healthz', {}, true],
      ['readyz check', '/readyz/shutdown', {}, true],
      ['livez', '/livez', {}, true],
      ['metrics', '/metrics', {}, true],
      ['loopback client', '/api/v1/namespaces/default/secrets', { 'user-agent': 'plat-apiserver/v1.32.0' }, true],
    ];
    for (const [name, path, headers, served] of cases) {
      const r = await fetch(`${base}${path}`, { method: name === 'create' ? 'POST' : 'GET', headers });
      const text = await r.text();
      if (served) { assert.equal(text, 'served', name); continue; }
      assert.equal(r.status, 503, name);
      assert.equal(text, SHUTTING_DOWN, name);
      assert.equal(r.headers.get('retry-after'), '1', name);
      assert.equal(r.headers.get('content-type'), 'application/json', name);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', name);
    }
  });
});
