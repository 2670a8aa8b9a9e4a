// The same API over HTTP/2 (node:http2 with the admin certificate from <data-dir>/pki): ALPN picks
// h2, list, create and a watch stream work, a HEAD watch is answered; --disable-http2-serving
// leaves HTTP/1.1 only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { connectH2, h2Fetch } from '../helpers/http2-client.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { LineCollector, WatchStream, waitUntil } from '../helpers/watch-stream.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';

interface Pki { ca: string; cert: string; key: string }
const pkiOf = (dataDir: string): Pki => {
  const dir = path.join(dataDir, 'pki');
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  return { ca: read('ca.crt'), cert: read('admin.crt'), key: read('admin.key') };
};

interface H2Response { status: number; headers: http2.IncomingHttpHeaders; text: string; json: any }

function h2Request(session: http2.ClientHttp2Session, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = session.request({
      ':method': method, ':path': p, accept: 'application/json',
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    }, { endStream: payload === undefined });
    let resHeaders: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => { resHeaders = h; });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try { json = JSON.parse(text); } catch { json = undefined; }
      resolve({ status: Number(resHeaders[':status']), headers: resHeaders, text, json });
    });
    req.on('error', reject);
    if (payload !== undefined) req.end(payload);
  });
}

/** Which protocol the server picks when offered `protocols`. */
function alpn(url: string, pki: Pki, protocols: string[]): Promise<string | false | null> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: u.hostname, port: Number(u.port), ca: pki.ca, cert: pki.cert, key: pki.key, ALPNProtocols: protocols,
    }, () => {
      const chosen = socket.alpnProtocol;
      socket.end();
      resolve(chosen);
    });
    socket.on('error', reject);
  });
}

describe('HTTP/2 serving', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  let pki: Pki;
  let session: http2.ClientHttp2Session;
  before(async () => {
    fx = fixtures();
    plat = await startInProcess();
    pki = pkiOf(plat.dataDir);
    session = await connectH2(plat.url, pki);
  });
  after(async () => {
    session?.destroy();
    await plat?.stop();
  });

  it('ALPN negotiates h2 (and still offers http/1.1)', async () => {
    assert.equal(session.alpnProtocol, 'h2');
    assert.equal(await alpn(plat.url, pki, ['h2', 'http/1.1']), 'h2');
    assert.equal(await alpn(plat.url, pki, ['http/1.1']), 'http/1.1');
  });

  it('lists and creates over h2 as the admin', async () => {
    const empty = await h2Request(session, 'GET', P);
    assert.equal(empty.status, 200, empty.text);
    assert.match(String(empty.headers['content-type']), /^application\/json/);
    assert.equal(empty.json.kind, 'CertificateSigningRequestList');
    assert.deepEqual(empty.json.items, []);

    const created = await h2Request(session, 'POST', P, baseCsr(fx, 'h2-one'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.metadata.name, 'h2-one');
    // The client certificate on the h2 connection identifies the user.
    assert.equal(created.json.spec.username, 'plat-admin');

    const list = await h2Request(session, 'GET', P);
    assert.deepEqual(list.json.items.map((i: any) => i.metadata.name), ['h2-one']);
    const one = await h2Request(session, 'GET', `${P}/h2-one`);
    assert.equal(one.status, 200);
    assert.equal(one.json.metadata.uid, created.json.metadata.uid);
    const missing = await h2Request(session, 'GET', `${P}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.json.reason, 'NotFound');
  });

  it('streams watch events over h2', async () => {
    const rv = (await h2Request(session, 'GET', P)).json.metadata.resourceVersion as string;
    const stream = session.request({ ':method': 'GET', ':path': `${P}?watch=true&resourceVersion=${rv}`, accept: 'application/json' }, { endStream: true });
    const lines = new LineCollector();
    let status = 0;
    let contentType = '';
    stream.on('response', (h) => { status = Number(h[':status']); contentType = String(h['content-type']); });
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => lines.push(c));
    try {
      await waitUntil(() => (status ? true : undefined), 'watch response headers');
      assert.equal(status, 200);
      assert.match(contentType, /^application\/json/);
      const created = await h2Request(session, 'POST', P, baseCsr(fx, 'h2-two'));
      assert.equal(created.status, 201, created.text);
      const del = await h2Request(session, 'DELETE', `${P}/h2-one`);
      assert.equal(del.status, 200, del.text);
      await waitUntil(() => (lines.events.length >= 2 ? true : undefined), 'two watch events over h2');
      assert.deepEqual(lines.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED h2-two', 'DELETED h2-one']);
      assert.equal(lines.events[0]!.object.metadata.resourceVersion, created.json.metadata.resourceVersion);
    } finally {
      stream.close();
    }
    // The session stays usable after the watch stream is cancelled.
    assert.equal((await h2Request(session, 'GET', `${P}/h2-two`)).status, 200);
  });

  it('a watch with timeoutSeconds ends its h2 stream cleanly', async () => {
    const stream = session.request({ ':method': 'GET', ':path': `${P}?watch=true&timeoutSeconds=1&labelSelector=none%3Dyes`, accept: 'application/json' }, { endStream: true });
    let status = 0;
    let ended = false;
    let body = '';
    stream.on('response', (h) => { status = Number(h[':status']); });
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => { body += c; });
    stream.on('end', () => { ended = true; });
    await waitUntil(() => (ended ? true : undefined), 'the h2 watch stream to end');
    assert.equal(status, 200);
    assert.equal(body, '');
  });

  it('answers a HEAD watch with its headers and ends the stream', async () => {
    const head = await h2Fetch(session, 'HEAD', `${P}?watch=true`, { accept: 'application/json' });
    assert.equal(head.status, 200);
    assert.match(String(head.headers['content-type']), /^application\/json/);
    assert.equal(head.body.length, 0);
    assert.equal((await h2Request(session, 'GET', P)).status, 200, 'the session stays usable');
  });
});

describe('--disable-http2-serving', () => {
  let plat: RunningPlat;
  let pki: Pki;
  before(async () => {
    plat = await startInProcess({ args: ['--disable-http2-serving'] });
    pki = pkiOf(plat.dataDir);
  });
  after(async () => { await plat?.stop(); });

  it('speaks HTTP/1.1 only', async () => {
    assert.equal(await alpn(plat.url, pki, ['h2', 'http/1.1']), 'http/1.1');
    const r = await plat.admin.get(P);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.kind, 'CertificateSigningRequestList');
    // Watches stream over HTTP/1.1 chunked encoding.
    const w = await WatchStream.open(plat.admin, `${P}?watch=true&resourceVersion=${r.json.metadata.resourceVersion}`);
    try {
      assert.equal(w.status, 200);
      assert.equal(w.headers['transfer-encoding'], 'chunked');
      assert.equal((await plat.admin.post(P, baseCsr(fixtures(), 'h1-only'))).status, 201);
      const [ev] = await w.waitForCount(1);
      assert.equal(ev!.type, 'ADDED');
      assert.equal(ev!.object.metadata.name, 'h1-only');
    } finally {
      w.close();
    }
    // An HTTP/2-only client cannot get a session.
    await assert.rejects(connectH2(plat.url, pki));
  });
});
