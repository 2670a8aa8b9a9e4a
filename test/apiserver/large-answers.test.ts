// Large answers on the wire: a 17 MB list over HTTP/2 goes out paced (paced-body.ts), so the
// session does not refuse the other streams of its connection (node's maxSessionMemory) while it
// is queued; and the request deadline covers the writing (answer-deadline.ts): a client that never
// reads has its HTTP/1.1 connection closed, or its HTTP/2 stream reset, once the deadline passes,
// as upstream's timeout filter aborts the handler, while its session goes on and a watch is not cut.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import tls from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { connectH2, h2Fetch } from '../helpers/http2-client.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';

const NS = 'large-answers';
const LIST = `/api/v1/namespaces/${NS}/secrets`;
const SECRETS = 13;
/** Generous: the deadlines below are 2 s, the server may share two cores with other tests. */
const BOUND_MS = 30_000;

/** `p`, or a failure naming `what` past BOUND_MS. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no ${what} within ${BOUND_MS} ms`)), BOUND_MS); });
  try { return await Promise.race([p, late]); } finally { clearTimeout(timer); }
}

interface Pki { ca: string; cert: string; key: string }

interface Paused {
  readonly headers: http2.IncomingHttpHeaders;
  /** Reads the body from now on, to the stream's end or reset (rstCode 0: ended). */
  rest(): Promise<{ body: Buffer; rstCode: number }>;
}

/** A stream opened and its head received, its body not read until rest(). */
function openPaused(session: http2.ClientHttp2Session, p: string): Promise<Paused> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': p, accept: 'application/json' }, { endStream: true });
    stream.pause();
    // Listened for from the start: a reset may come while the body is not read.
    const closed = new Promise<number>((r) => stream.once('close', () => r(stream.rstCode ?? 0)));
    const chunks: Buffer[] = [];
    const rest = async () => {
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.resume();
      const rstCode = await within(closed, 'end of the stream');
      return { body: Buffer.concat(chunks), rstCode };
    };
    stream.once('response', (headers) => { stream.on('error', () => {}); resolve({ headers, rest }); });
    stream.once('error', reject);
  });
}

describe('large answers', () => {
  let plat: RunningPlat;
  let pki: Pki;
  /** The list as HTTP/1.1 reads it. */
  let whole: Buffer;

  const terminations = async (): Promise<number> => {
    const line = (await plat.admin.get('/metrics')).text.split('\n')
      .find((l) => l.startsWith('apiserver_request_terminations_total{') && l.includes('resource="secrets"') && l.includes('verb="LIST"'));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  /** Resolves once the list's terminations have passed `n`. */
  const terminatedPast = async (n: number): Promise<void> => {
    const deadline = Date.now() + BOUND_MS;
    while (await terminations() <= n) {
      assert.ok(Date.now() < deadline, 'the list past its deadline was not terminated');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    plat = await startInProcess();
    const dir = path.join(plat.dataDir, 'pki');
    const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
    pki = { ca: read('ca.crt'), cert: read('admin.crt'), key: read('admin.key') };
    assert.equal((await plat.admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    for (let i = 0; i < SECRETS; i++) {
      const data = { a: Buffer.alloc(1_000_000, String.fromCharCode(97 + i)).toString('base64') };
      const r = await plat.admin.post(LIST, { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s${i}` }, data });
      assert.equal(r.status, 201, r.text);
    }
    // A deadline well beyond the time the read takes: the answer comes whole.
    const r = await plat.admin.get(`${LIST}?timeout=50s`);
    assert.equal(r.status, 200);
    assert.equal(Number(r.headers['content-length']), r.raw.length);
    whole = r.raw;
    assert.ok(whole.length > 12 << 20, `list of ${whole.length} bytes`);
    assert.equal(JSON.parse(whole.toString()).items.length, SECRETS);
  });
  after(async () => { await plat?.stop(); });

  it('HTTP/2: every small request on the connection is answered while a large list waits unread, which then arrives whole', async () => {
    const session = await connectH2(plat.url, pki);
    // client-go's connection window (1 GiB): only the list's own stream window holds it back.
    session.setLocalWindowSize(1 << 30);
    try {
      const big = await openPaused(session, LIST);
      assert.equal(big.headers[':status'], 200);
      assert.equal(Number(big.headers['content-length']), whole.length);
      const small = await Promise.all(Array.from({ length: 40 }, () => h2Fetch(session, 'GET', '/version')));
      assert.deepEqual(small.map((a) => a.status), Array(40).fill(200));
      const { body, rstCode } = await big.rest();
      assert.equal(rstCode, 0);
      assert.ok(body.equals(whole), 'the list as HTTP/1.1 has it');
      // Gzipped (compression.ts) and paced alike.
      const gz = await h2Fetch(session, 'GET', LIST, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(Number(gz.headers['content-length']), gz.body.length);
      assert.ok(gunzipSync(gz.body).equals(whole));
    } finally {
      session.destroy();
    }
  });

  it('HTTP/1.1: a client that never reads has its connection closed past the deadline; a watch asking for a shorter one goes on', async () => {
    const watch = await WatchStream.open(plat.admin, `${LIST}?watch=true&timeout=1s`);
    const before = await terminations();
    const socket = tls.connect({ host: new URL(plat.url).hostname, port: Number(new URL(plat.url).port), ...pki, ALPNProtocols: ['http/1.1'] });
    socket.pause();
    await new Promise((r) => socket.once('secureConnect', r));
    const received: Buffer[] = [];
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', () => {});
    socket.write(`GET ${LIST}?timeout=2s HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`);
    await terminatedPast(before);
    // What the kernel's buffers kept is still read, then the connection ends short of the answer.
    socket.resume();
    await within(ended, 'close of the connection');
    const got = Buffer.concat(received);
    const head = got.subarray(0, got.indexOf('\r\n\r\n')).toString();
    assert.match(head, /^HTTP\/1\.1 200 /);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    assert.equal(length, whole.length);
    assert.ok(got.length - head.length - 4 < length, 'the answer was cut');
    // The watch's timeout (1s) has passed too: long-running, it is not cut.
    await plat.admin.post(LIST, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'after-cut' } });
    await watch.waitFor((e) => e.type === 'ADDED' && e.object.metadata.name === 'after-cut', 'the new secret on the watch');
    assert.equal(watch.ended, false);
    watch.close();
  });

  it('HTTP/2: a stream that is never read is reset past the deadline, and only it', async () => {
    const session = await connectH2(plat.url, pki);
    session.setLocalWindowSize(1 << 30);
    try {
      const before = await terminations();
      const big = await openPaused(session, `${LIST}?timeout=2s`);
      assert.equal(big.headers[':status'], 200);
      await terminatedPast(before);
      const { body, rstCode } = await big.rest();
      assert.equal(rstCode, http2.constants.NGHTTP2_INTERNAL_ERROR);
      assert.ok(body.length < whole.length);
      assert.equal((await h2Fetch(session, 'GET', '/version')).status, 200);
      assert.equal(session.closed || session.destroyed, false);
    } finally {
      session.destroy();
    }
  });
});
