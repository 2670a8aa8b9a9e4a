// The listener's limits on clients, as upstream's SecureServingInfo.Serve sets them: a connection
// that has not finished its TLS handshake, or its HTTP/1.1 request headers, within ReadHeaderTimeout
// (32s there; half a second here) is dropped; an HTTP/2 connection may open 100 streams at once
// unless --http2-max-streams-per-connection says otherwise (node's own default is unlimited).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http2 from 'node:http2';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import Koa from 'koa';
import { DEFAULT_MAX_STREAMS, listen, type RunningServer } from '../../core/server/listen.js';
import { READ_HEADER_TIMEOUT_MS } from '../../core/server/slow-clients.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';

const READ_HEADER_MS = 500;
const BOUND_MS = 10_000;
const ca = makeCa();
const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
const app = new Koa().use((ctx) => { ctx.body = { ok: true }; });

async function closedWithin(socket: net.Socket, what: string): Promise<void> {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.emit('bound'), BOUND_MS);
  try {
    const which = await Promise.race([once(socket, 'close').then(() => 'close'), once(socket, 'bound').then(() => 'bound')]);
    assert.equal(which, 'close', `${what}: still open after ${BOUND_MS} ms`);
  } finally {
    clearTimeout(timer);
  }
}

async function remoteMaxStreams(server: RunningServer): Promise<number | undefined> {
  const session = http2.connect(`https://127.0.0.1:${server.address.port}`, { ca: ca.certificatePem, servername: 'localhost' });
  try {
    const [settings] = await once(session, 'remoteSettings') as [http2.Settings];
    return settings.maxConcurrentStreams;
  } finally {
    session.destroy();
  }
}

it("upstream's ReadHeaderTimeout is 32s", () => assert.equal(READ_HEADER_TIMEOUT_MS, 32_000));

for (const h2 of [true, false]) {
  describe(`slow clients (${h2 ? 'HTTP/2 server with HTTP/1.1 fallback' : 'HTTP/1.1-only server'})`, () => {
    let server: RunningServer;
    before(async () => {
      server = await listen(app, {
        host: '127.0.0.1', port: 0, http2: h2, readHeaderTimeoutMs: READ_HEADER_MS, prefaceTimeoutMs: READ_HEADER_MS,
        tls: { cert: serving.certificatePem, key: serving.privateKeyPem },
      });
    });
    after(async () => { await server?.close(); });

    it('drops a connection that never starts its TLS handshake', async () => {
      const socket = net.connect(server.address.port, '127.0.0.1');
      try {
        await once(socket, 'connect');
        socket.resume();
        await closedWithin(socket, 'a connection without a handshake');
      } finally {
        socket.destroy();
      }
    });

    if (h2) {
      it('drops an HTTP/2 connection that never sends its client preface, or only half of it (Go\'s prefaceTimeout)', async () => {
        for (const sent of ['', 'PRI * HTTP/2.0\r\n']) {
          const socket = tls.connect({ host: '127.0.0.1', port: server.address.port, servername: 'localhost', ca: ca.certificatePem, ALPNProtocols: ['h2'] });
          try {
            await once(socket, 'secureConnect');
            assert.equal(socket.alpnProtocol, 'h2');
            if (sent) socket.write(sent);
            socket.resume();
            await closedWithin(socket, `preface ${JSON.stringify(sent)}`);
          } finally {
            socket.destroy();
          }
        }
      });

      it('keeps an HTTP/2 connection whose preface came, past that limit', async () => {
        const session = http2.connect(`https://127.0.0.1:${server.address.port}`, { ca: ca.certificatePem, servername: 'localhost' });
        try {
          await once(session, 'remoteSettings');
          await new Promise((r) => setTimeout(r, READ_HEADER_MS * 3));
          const req = session.request({ ':path': '/' });
          req.setEncoding('utf8');
          let body = '';
          req.on('data', (d) => { body += d; });
          await once(req, 'end');
          assert.equal(body, '{"ok":true}');
        } finally {
          session.destroy();
        }
      });
    }

    it('drops an HTTP/1.1 connection that finished its handshake and never sends a request', async () => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.address.port, ca: ca.certificatePem, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
      try {
        await once(socket, 'secureConnect');
        socket.resume();
        await closedWithin(socket, 'a connection without a request');
      } finally {
        socket.destroy();
      }
    });

    it('keeps a connection whose request came in time, past that limit, for its answer and the next request', async () => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.address.port, ca: ca.certificatePem, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
      try {
        await once(socket, 'secureConnect');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => { answer += d; });
        socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await new Promise((r) => setTimeout(r, READ_HEADER_MS * 3));
        assert.ok(!socket.destroyed, 'kept after its first request');
        socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
        for (let i = 0; i < 100 && (answer.match(/HTTP\/1\.1 200/g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal((answer.match(/HTTP\/1\.1 200/g) ?? []).length, 2, answer);
      } finally {
        socket.destroy();
      }
    });

    it('drops an HTTP/1.1 connection whose request headers never end', async () => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.address.port, ca: ca.certificatePem, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
      try {
        await once(socket, 'secureConnect');
        socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
        socket.resume();
        await closedWithin(socket, 'a request with unfinished headers');
      } finally {
        socket.destroy();
      }
    });
  });
}

describe('HTTP/2 streams per connection', () => {
  const servers: RunningServer[] = [];
  const start = async (maxStreamsPerConnection?: number) => {
    const s = await listen(app, {
      host: '127.0.0.1', port: 0, http2: true, tls: { cert: serving.certificatePem, key: serving.privateKeyPem },
      ...(maxStreamsPerConnection ? { maxStreamsPerConnection } : {}),
    });
    servers.push(s);
    return s;
  };
  after(async () => { await Promise.all(servers.map((s) => s.close())); });

  it("allows upstream's 100 by default, and what --http2-max-streams-per-connection says", async () => {
    assert.equal(DEFAULT_MAX_STREAMS, 100);
    assert.equal(await remoteMaxStreams(await start()), 100);
    assert.equal(await remoteMaxStreams(await start(5)), 5);
  });
});
