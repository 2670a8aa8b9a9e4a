// Idle connections are closed as upstream's servers close them (Go's IdleTimeout, 90s there; a few
// hundred milliseconds here): an HTTP/1.1 connection waiting for its next request, on the HTTP/2
// server's fallback and on the HTTP/1.1-only server, and an HTTP/2 connection with no stream open.
// An HTTP/2 connection carrying a quiet stream (a watch with no events) is kept while it is open.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http2 from 'node:http2';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import Koa from 'koa';
import { listen, type RunningServer } from '../../core/server/listen.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { connectH2, h2Fetch } from '../helpers/http2-client.js';

const IDLE_MS = 300;
const BOUND_MS = 10_000;
const ca = makeCa();
const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);

/** Resolves when `emitter` emits `event`, rejects past the bound (a connection never closed). */
async function within(emitter: NodeJS.EventEmitter, event: string, what: string): Promise<void> {
  const timer = setTimeout(() => emitter.emit('bound'), BOUND_MS);
  try {
    const which = await Promise.race([once(emitter, event).then(() => event), once(emitter, 'bound').then(() => 'bound')]);
    assert.equal(which, event, `${what}: not closed within ${BOUND_MS} ms`);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One GET over a raw HTTP/1.1 connection (node's agent would close it first, from the Keep-Alive hint), left open. */
async function http11(server: RunningServer): Promise<{ socket: tls.TLSSocket; answer: string }> {
  const socket = tls.connect({ host: '127.0.0.1', port: server.address.port, ca: ca.certificatePem, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
  await once(socket, 'secureConnect');
  socket.write('GET /quick HTTP/1.1\r\nHost: localhost\r\n\r\n');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => { answer += d; });
  for (let i = 0; i < 100 && !answer.endsWith('{"ok":true}'); i++) await sleep(20);
  assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  return { socket, answer };
}

function app(streams: PassThrough[]): Koa {
  const a = new Koa();
  a.use((ctx) => {
    if (ctx.path === '/stream') {
      const body = new PassThrough();
      streams.push(body);
      ctx.type = 'application/json';
      ctx.body = body;
      body.write('{}\n');
      return;
    }
    ctx.body = { ok: true };
  });
  return a;
}

for (const h2 of [true, false]) {
  describe(`idle connections (${h2 ? 'HTTP/2 server with HTTP/1.1 fallback' : 'HTTP/1.1-only server'})`, () => {
    let server: RunningServer;
    let url: string;
    const streams: PassThrough[] = [];
    before(async () => {
      server = await listen(app(streams), {
        host: '127.0.0.1', port: 0, http2: h2, idleTimeoutMs: IDLE_MS,
        tls: { cert: serving.certificatePem, key: serving.privateKeyPem },
      });
      url = `https://127.0.0.1:${server.address.port}`;
    });
    after(async () => { for (const s of streams) s.end(); await server?.close(); });

    it('closes an HTTP/1.1 keep-alive connection waiting for its next request', async () => {
      const { socket, answer } = await http11(server);
      try {
        assert.match(answer, /\r\nConnection: keep-alive\r\n/i);
        assert.ok(!socket.destroyed, 'the connection is kept alive after the answer');
        await within(socket, 'close', 'an idle HTTP/1.1 connection');
      } finally {
        socket.destroy();
      }
    });

    it("tells HTTP/1.1 clients upstream's 90s by default (node's agent then closes its side a second earlier)", async () => {
      const byDefault = await listen(app(streams), { host: '127.0.0.1', port: 0, http2: h2, tls: { cert: serving.certificatePem, key: serving.privateKeyPem } });
      try {
        const { socket, answer } = await http11(byDefault);
        socket.destroy();
        assert.match(answer, /\r\nKeep-Alive: timeout=90\r\n/i);
      } finally {
        await byDefault.close();
      }
    });

    if (!h2) return;

    it('closes an HTTP/2 connection with no stream open', async () => {
      const session = await connectH2(url, { ca: ca.certificatePem });
      try {
        assert.equal((await h2Fetch(session, 'GET', '/quick')).status, 200);
        await within(session, 'close', 'an idle HTTP/2 connection');
      } finally {
        session.destroy();
      }
    });

    it('keeps an HTTP/2 connection while a quiet stream is open, and closes it once that has ended', async () => {
      const session = await connectH2(url, { ca: ca.certificatePem });
      try {
        const req = session.request({ ':method': 'GET', ':path': '/stream' });
        const [headers] = await once(req, 'response') as [http2.IncomingHttpHeaders];
        assert.equal(headers[':status'], 200);
        req.resume();
        await sleep(IDLE_MS * 4);
        assert.ok(!session.closed && !session.destroyed, 'the connection of an open stream is kept past the idle timeout');
        streams.at(-1)!.end();
        await once(req, 'end');
        await within(session, 'close', 'an HTTP/2 connection whose last stream ended');
      } finally {
        session.destroy();
      }
    });
  });
}
