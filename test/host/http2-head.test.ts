// HEAD over HTTP/2 on the API server and the controller manager: answered with GET's status and
// headers and no body — a success, a 404, a 403 and a 401 alike. koa behind node:http2's
// compatibility layer once sent nothing at all for a HEAD (core/server/koa-callback.ts), while
// HTTP/1.1 worked. One table for both components.
import assert from 'node:assert/strict';
import type http2 from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { connectH2, h2Fetch } from '../helpers/http2-client.js';
import { startInProcess, type Client, type RunningPlat } from '../helpers/plat.js';
import { endpoints } from './endpoints.js';

describe('HEAD over HTTP/2', () => {
  let plat: RunningPlat;
  const running: { stop(): Promise<void> }[] = [];
  const sessions: http2.ClientHttp2Session[] = [];
  before(async () => { plat = await startInProcess({ args: ['--authorization-mode=RBAC'] }); });
  after(async () => {
    for (const s of sessions) s.destroy();
    for (const r of running) await r.stop();
    await plat?.stop();
  });

  const open = async (client: Client): Promise<http2.ClientHttp2Session> => {
    const s = await connectH2(client.url, client.creds);
    sessions.push(s);
    assert.equal(s.alpnProtocol, 'h2');
    return s;
  };

  /** The headers of an HTTP/1.1 answer that HTTP/2 has too. */
  const endToEnd = (h: Record<string, unknown>) => {
    const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = h;
    return rest;
  };
  const withoutLength = (h: Record<string, unknown>) => {
    const { 'content-length': _l, ...rest } = h;
    return rest;
  };

  for (const c of endpoints(() => plat, running)) {
    it(`${c.name}: answers as GET does, without the body, and as over HTTP/1.1`, async () => {
      const e = await c.start([]);
      const anonymous = e.admin.with({ anonymous: true });
      const bogusToken = { authorization: 'Bearer not-a-known-token' };
      const cases: [string, Client, string, Record<string, string>, number][] = [
        ['a health check', e.admin, '/healthz', {}, 200],
        ['a path nothing serves', e.admin, '/no-such-path', {}, 404],
        ['a path the user may not read', e.nobody, '/debug/pprof/', {}, 403],
        ['an unknown token', anonymous, '/debug/pprof/', bogusToken, 401],
      ];
      for (const [why, client, path, given, status] of cases) {
        // The API server echoes the request's Audit-ID (a new UUID each otherwise): the same for all three.
        const headers = { ...given, 'audit-id': 'http2-head' };
        // A connection each: one that carried a 401 gets a GOAWAY after it (UnauthenticatedHTTP2DOSMitigation).
        const get = await h2Fetch(await open(client), 'GET', path, headers);
        const head = await h2Fetch(await open(client), 'HEAD', path, headers);
        assert.equal(get.status, status, `${why}: GET ${get.body.toString()}`);
        assert.ok(get.body.length > 0, `${why}: GET has a body`);
        assert.equal(head.status, status, why);
        assert.equal(head.body.length, 0, `${why}: no body`);
        // A 403's Status names the verb, `head` or `get` (as upstream's): its length differs.
        if (status === 403) assert.deepEqual(withoutLength(head.headers), withoutLength(get.headers), `${why}: the headers GET has`);
        else assert.deepEqual(head.headers, { ...get.headers, 'content-length': String(get.body.length) }, `${why}: the headers GET has`);
        const h1 = await client.request('HEAD', path, undefined, headers);
        assert.equal(h1.status, status, `${why}: HEAD over HTTP/1.1`);
        assert.deepEqual(head.headers, endToEnd(h1.headers), `${why}: the headers HEAD has over HTTP/1.1`);
      }
    });
  }
});
