// Upstream's WithHSTS, WithCORS and WithProbabilisticGoaway as the three flags install them, over
// real TLS: HSTS on every answer from inside the chain (401 and 404 included); CORS headers for an
// origin an expression matches (Go's regexp syntax, searched unanchored), a preflight from it
// answered 204 before authentication; with --goaway-chance and a draw that always hits, an HTTP/2
// connection gets GOAWAY with its answer (a watch's as its headers go out, the watch going on)
// while HTTP/1.1 is never told to close. Without the flags none of it happens.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type http2 from 'node:http2';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { setGoawayRandom } from '../../plugins/apiserver/goaway-random.js';
import { connectH2, goawayReceived, h2Fetch } from '../helpers/http2-client.js';
import { Client, startInProcess, type RunningPlat } from '../helpers/plat.js';

const HSTS = 'max-age=31536000; includeSubDomains; preload';
const CORS_HEADERS = {
  'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
  'access-control-allow-headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
  'access-control-expose-headers': 'Date',
  'access-control-allow-credentials': 'true',
};

/** Every draw is 0: below any chance above 0, so each HTTP/2 request is its connection's last. */
const alwaysGoaway: Plugin = { name: 'always-goaway', apply: (host) => setGoawayRandom(host, () => 0) };

const pki = (plat: RunningPlat) => {
  const read = (f: string) => readFileSync(path.join(plat.dataDir, 'pki', f), 'utf8');
  return { ca: read('ca.crt'), cert: read('admin.crt'), key: read('admin.key') };
};

const corsOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith('access-control-')));

describe('--strict-transport-security-directives, --cors-allowed-origins, --goaway-chance', () => {
  let plat: RunningPlat;
  let anonymous: Client;
  const sessions: http2.ClientHttp2Session[] = [];
  before(async () => {
    plat = await startInProcess({
      args: ['--strict-transport-security-directives=max-age=31536000,includeSubDomains,preload',
        // A POSIX class: RE2 reads it, a JavaScript RegExp would take `[[:alpha:]]` as other characters.
        '--cors-allowed-origins=//example\\.com(:|$),^https://[[:alpha:]]+\\.test$',
        '--goaway-chance=0.02'],
      plugins: [alwaysGoaway],
    });
    anonymous = new Client(plat.url, { ca: pki(plat).ca });
  });
  after(async () => {
    for (const s of sessions) s.destroy();
    await plat?.stop();
  });

  it('HSTS: every answer carries the directives joined by "; ", errors included', async () => {
    assert.equal((await plat.admin.get('/livez')).headers['strict-transport-security'], HSTS);
    const missing = await plat.admin.get('/apis/no.such.group/v1');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['strict-transport-security'], HSTS);
    const unauthorized = await anonymous.get('/api', { authorization: 'Bearer not-a-known-token' });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['strict-transport-security'], HSTS);
  });

  for (const origin of ['https://example.com', 'http://example.com:8080', 'https://abc.test']) {
    it(`CORS: ${origin} is allowed, with upstream's default headers`, async () => {
      const r = await plat.admin.get('/version', { origin });
      assert.equal(r.status, 200);
      assert.deepEqual(corsOf(r.headers), { 'access-control-allow-origin': origin, ...CORS_HEADERS });
    });
  }

  for (const origin of ['https://example.com.evil.test', 'https://notexample.com', 'https://ab1.test']) {
    it(`CORS: ${origin} gets no CORS headers, and its preflight goes on to authentication`, async () => {
      const r = await plat.admin.get('/version', { origin });
      assert.equal(r.status, 200);
      assert.deepEqual(corsOf(r.headers), {});
      const preflight = await anonymous.request('OPTIONS', '/version', undefined, { origin, 'access-control-request-method': 'GET' });
      assert.equal(preflight.status, 401);
    });
  }

  it('CORS: an allowed origin\'s preflight is 204 before authentication; its 401 carries the headers too', async () => {
    const origin = 'https://example.com';
    const preflight = await anonymous.request('OPTIONS', '/api/v1/namespaces', undefined, { origin, 'access-control-request-method': 'DELETE' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.text, '');
    assert.deepEqual(corsOf(preflight.headers), { 'access-control-allow-origin': origin, ...CORS_HEADERS });
    assert.equal(preflight.headers['strict-transport-security'], HSTS, 'HSTS sits outside CORS');
    const unauthorized = await anonymous.get('/api', { origin, authorization: 'Bearer not-a-known-token' });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['access-control-allow-origin'], origin);
  });

  it('CORS: the first of two Origin lines is the one matched and echoed, as Go\'s Header.Get', async () => {
    const session = await connectH2(plat.url, pki(plat));
    sessions.push(session);
    const r = await h2Fetch(session, 'GET', '/version', { origin: ['https://example.com', 'https://evil.test'] as unknown as string });
    assert.equal(r.status, 200);
    assert.deepEqual(corsOf(r.headers), { 'access-control-allow-origin': 'https://example.com', ...CORS_HEADERS });
  });

  it('GOAWAY: an HTTP/2 client gets its answer, then the connection goes away', async () => {
    const session = await connectH2(plat.url, pki(plat));
    sessions.push(session);
    const gone = goawayReceived(session);
    const first = await h2Fetch(session, 'GET', '/version');
    assert.equal(first.status, 200);
    assert.equal(typeof JSON.parse(first.body.toString()).gitVersion, 'string');
    await gone;
    await assert.rejects(h2Fetch(session, 'GET', '/version'));
  });

  it('GOAWAY: a watch gets it as its headers go out, and goes on streaming', async () => {
    const session = await connectH2(plat.url, pki(plat));
    sessions.push(session);
    const gone = goawayReceived(session);
    const watch = session.request({ ':method': 'GET', ':path': '/api/v1/namespaces?watch=true', accept: 'application/json' }, { endStream: true });
    let ended = false;
    watch.on('end', () => { ended = true; });
    const first = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no watch event within 10 s')), 10_000);
      watch.once('data', (c: Buffer) => { clearTimeout(timer); resolve(c.toString()); });
    });
    await gone;
    // The namespaces that exist arrive as ADDED events after the GOAWAY: the stream is not cut.
    assert.match(await first, /"type":"ADDED"/);
    assert.equal(ended, false);
    watch.close();
  });

  it('GOAWAY: HTTP/1.1 is never told to close', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await plat.admin.get('/version');
      assert.equal(r.status, 200);
      assert.notEqual(r.headers.connection, 'close');
    }
  });
});

describe('without the three flags', () => {
  let plat: RunningPlat;
  let session: http2.ClientHttp2Session | undefined;
  before(async () => { plat = await startInProcess({ plugins: [alwaysGoaway] }); });
  after(async () => { session?.destroy(); await plat?.stop(); });

  it('adds no HSTS or CORS headers, and keeps HTTP/2 connections', async () => {
    const r = await plat.admin.get('/version', { origin: 'https://example.com' });
    assert.equal(r.headers['strict-transport-security'], undefined);
    assert.deepEqual(corsOf(r.headers), {});
    session = await connectH2(plat.url, pki(plat));
    for (let i = 0; i < 3; i++) assert.equal((await h2Fetch(session, 'GET', '/version')).status, 200);
    assert.equal(session.closed, false);
  });
});
