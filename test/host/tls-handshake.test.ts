// The TLS handshake of plat's secure servers against Go's crypto/tls and net/http server, on both
// shared listeners: core/server/listen.ts (the API server and the controller manager) and the node
// agent's listenSecure. One table: no renegotiation, Go's suite preference whatever the flag's
// order (ChaCha20 for a client that prefers it), Go's TLS 1.3 order and curves, the 7-day ticket
// lifetime, net/http's 400 to plain HTTP, an SNI name with a trailing dot refused, and the
// `http: TLS handshake error from ...` lines in Go's words.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { after, describe, it } from 'node:test';
import Koa from 'koa';
import { createLogger } from '../../core/log.js';
import { listen } from '../../core/server/listen.js';
import { tlsSettings } from '../../core/server/tls-settings.js';
import { listenSecure } from '../../plugins/nodeagent-server/listeners.js';
import { selfSignedPair } from '../nodeagent/server/support.js';

interface Served { port: number; lines: string[]; stop(): Promise<void> }
type Start = (suites?: string[]) => Promise<Served>;

const app = () => { const a = new Koa(); a.use((ctx) => { ctx.body = 'ok'; }); return a; };

const servers: [string, Start][] = [
  ['core listen (API server, controller manager)', async (suites) => {
    const lines: string[] = [];
    const settings = tlsSettings('', suites);
    const s = await listen(app(), {
      host: '127.0.0.1', port: 0, http2: true, tls: { ...selfSignedPair('localhost'), ciphers: settings.ciphers }, minVersion: settings.minVersion,
      log: createLogger({ verbosity: 5, write: (l) => lines.push(l) }),
    });
    return { port: s.address.port, lines, stop: async () => { await s.close(); } };
  }],
  ['node agent listenSecure', async (suites) => {
    const lines: string[] = [];
    const s = await listenSecure(app(), { host: '127.0.0.1', port: 0, pair: selfSignedPair('localhost'), tls: tlsSettings('', suites), log: createLogger({ write: (l) => lines.push(l) }) });
    return { port: s.address.port, lines, stop: () => s.close() };
  }],
];

function handshake(port: number, o: tls.ConnectionOptions = {}): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], ...o }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Everything the server sends on a raw TCP connection after `payload`, until it closes (bounded). */
function raw(port: number, payload: Buffer | string | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = net.connect(port, '127.0.0.1', () => { if (payload === undefined) s.end(); else s.write(payload); });
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('close', () => resolve(Buffer.concat(chunks)));
    s.on('error', reject);
    s.setTimeout(10_000, () => { s.destroy(); reject(new Error('no close within 10s')); });
  });
}

function openssl(args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', ['s_client', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    const timer = setTimeout(() => child.kill(), 10_000);
    child.on('error', reject);
    child.on('close', () => { clearTimeout(timer); resolve(out); });
    child.stdin.end(input);
  });
}

/** The handshake error lines logged so far, waiting (bounded) for `count` of them. */
async function logged(s: Served, count: number): Promise<string[]> {
  for (let i = 0; i < 200 && s.lines.filter((l) => l.includes('http: TLS handshake error from')).length < count; i++) await new Promise((r) => setTimeout(r, 25));
  return s.lines.filter((l) => l.includes('http: TLS handshake error from')).map((l) => /http: TLS handshake error from 127\.0\.0\.1:\d+: ([^"\n\\]*)/.exec(l)?.[1] ?? l);
}

describe('secure servers: the TLS handshake as Go\'s server', () => {
  const running: Served[] = [];
  after(async () => { for (const r of running) await r.stop(); });
  const start = async (s: Start, suites?: string[]) => { const r = await s(suites); running.push(r); return r; };

  for (const [name, server] of servers) {
    it(`${name}: refuses renegotiation`, async () => {
      const s = await start(server);
      const c = await handshake(s.port, { maxVersion: 'TLSv1.2' });
      const refused = await new Promise<Error | null>((resolve) => {
        c.once('error', resolve);
        c.renegotiate({ rejectUnauthorized: false }, (e) => resolve(e ?? null));
      });
      c.destroy();
      assert.ok(refused, 'the renegotiation succeeded');
    });

    it(`${name}: picks suites in Go's order, not the flag's; ChaCha20 for a client that prefers it`, async () => {
      const s = await start(server, ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256']);
      const cipher = async (o: tls.ConnectionOptions) => { const c = await handshake(s.port, o); const { standardName } = c.getCipher(); c.destroy(); return standardName; };
      const table: [tls.ConnectionOptions, string][] = [
        [{ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES128-GCM-SHA256' }, 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'],
        [{ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256' }, 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256'],
        [{}, 'TLS_AES_128_GCM_SHA256'],
        [{ ciphers: 'TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256' }, 'TLS_CHACHA20_POLY1305_SHA256'],
      ];
      for (const [o, want] of table) assert.equal(await cipher(o), want, JSON.stringify(o));
    });

    it(`${name}: offers Go's curves only, and tickets for 7 days`, async () => {
      const s = await start(server);
      for (const curve of ['X25519', 'P-256', 'P-384', 'P-521']) (await handshake(s.port, { ecdhCurve: curve })).destroy();
      await assert.rejects(handshake(s.port, { ecdhCurve: 'X448' }), /handshake failure|alert/i);
      const out = await openssl(['-connect', `127.0.0.1:${s.port}`, '-tls1_3', '-ign_eof'], 'Q\n');
      assert.match(out, /lifetime hint: 604800 \(seconds\)/, out);
    });

    it(`${name}: answers plain HTTP with net/http's 400 and logs Go's handshake errors`, async () => {
      const s = await start(server);
      assert.equal((await raw(s.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')).toString('latin1'), 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n');
      assert.equal((await raw(s.port, 'hello, world\r\n')).length, 0, 'no alert for what is not TLS');
      assert.equal((await raw(s.port, undefined)).length, 0);
      await assert.rejects(handshake(s.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' }), /protocol version|alert/i);
      await assert.rejects(handshake(s.port, { maxVersion: 'TLSv1.2', ciphers: 'AES128-SHA256' }), /handshake failure|alert/i);
      assert.deepEqual(await logged(s, 5), [
        'client sent an HTTP request to an HTTPS server',
        'tls: first record does not look like a TLS handshake',
        'EOF',
        'tls: client offered only unsupported versions: [302 301]',
        'tls: no cipher suite supported by both client and server',
      ]);
      (await handshake(s.port)).destroy();
      const h2 = await handshake(s.port, { ALPNProtocols: ['h2'] });
      assert.equal(h2.alpnProtocol, 'h2', 'HTTP/2 is still negotiated');
      h2.destroy();
    });

    it(`${name}: refuses an SNI name with a trailing dot with an unexpected_message alert`, async () => {
      const s = await start(server);
      const out = await openssl(['-connect', `127.0.0.1:${s.port}`, '-servername', 'localhost.'], '');
      assert.match(out, /alert unexpected message/, out);
      assert.deepEqual(await logged(s, 1), ['local error: tls: unexpected message']);
      (await handshake(s.port, { servername: 'localhost' })).destroy();
    });
  }
});

describe('secure servers: connections ended before or during the handshake', () => {
  // A short handshake deadline (listen's readHeaderTimeoutMs) so that waiting for it is quick.
  const TIMEOUT_MS = 400;
  const startCore = async (): Promise<Served> => {
    const lines: string[] = [];
    const s = await listen(app(), {
      host: '127.0.0.1', port: 0, http2: true, tls: selfSignedPair('localhost'), readHeaderTimeoutMs: TIMEOUT_MS,
      log: createLogger({ verbosity: 5, write: (l) => lines.push(l) }),
    });
    return { port: s.address.port, lines, stop: async () => { await s.close(); } };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** A TLS client over `sock` whose writes go through `send` (which may drop them). */
  const clientOver = (sock: net.Socket, send: (chunk: Buffer) => void): tls.TLSSocket => {
    const wire = new Duplex({
      read() { /* pushed from sock */ },
      write(chunk: Buffer, _enc, cb) { send(chunk); cb(); },
    });
    sock.on('data', (d: Buffer) => wire.push(d));
    sock.on('close', () => wire.push(null));
    sock.on('error', () => { /* the server gives up on it */ });
    const client = tls.connect({ socket: wire, rejectUnauthorized: false, servername: 'localhost', ALPNProtocols: ['h2'] });
    client.on('error', () => { /* expected */ });
    return client;
  };

  for (const [name, server] of servers) {
    it(`${name}: survives clients that reset the connection as the 400 or the alert goes out`, async () => {
      const s = await server();
      try {
        // The answer's write then fails with ECONNRESET; with no 'error' listener left on the socket
        // that was an uncaught exception, which ended the whole process.
        for (let i = 0; i < 100; i++) {
          await new Promise<void>((resolve) => {
            const c = net.connect(s.port, '127.0.0.1', () => { c.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n', () => { c.resetAndDestroy(); resolve(); }); });
            c.on('error', () => resolve());
          });
        }
        await sleep(100);
        (await handshake(s.port)).destroy();
      } finally {
        await s.stop();
      }
    });
  }

  const midHandshake: { name: string; client(sock: net.Socket): (chunk: Buffer) => void; reason(server: number, client: number): string }[] = [
    {
      name: 'names the client of a handshake that times out after its first record, though the HTTP/2 server has destroyed the socket',
      // The ClientHello goes out; nothing after it, so the handshake stalls on the server's side.
      client: (sock) => { let first = true; return (chunk) => { if (first) { first = false; sock.write(chunk); } }; },
      reason: (server, client) => `read tcp 127.0.0.1:${server}->127.0.0.1:${client}: i/o timeout`,
    },
    {
      name: 'logs a client that closes (FIN) in the middle of the handshake as Go\'s EOF',
      // The server's first flight arrives: the client then closes its side instead of finishing.
      client: (sock) => { sock.once('data', () => sock.end()); return (chunk) => sock.write(chunk); },
      reason: () => 'EOF',
    },
  ];
  for (const c of midHandshake) {
    it(c.name, async () => {
      const s = await startCore();
      const sock = net.connect(s.port, '127.0.0.1');
      try {
        const client = clientOver(sock, c.client(sock));
        await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
        const port = sock.localPort!;
        for (let i = 0; i < 200 && !s.lines.some((l) => l.includes('TLS handshake error')); i++) await sleep(25);
        const line = s.lines.find((l) => l.includes('TLS handshake error')) ?? s.lines.join('\n');
        assert.ok(line.includes(`http: TLS handshake error from 127.0.0.1:${port}: ${c.reason(s.port, port)}`), line);
        client.destroy();
      } finally {
        sock.destroy();
        await s.stop();
      }
    });
  }

  it('stops waiting for first records when it closes: no handshake error is logged for them afterwards', async () => {
    const s = await startCore();
    const idle = await Promise.all([0, 1, 2].map(() => new Promise<net.Socket>((resolve) => {
      const c = net.connect(s.port, '127.0.0.1', () => resolve(c));
      c.on('error', () => { /* cut by the close */ });
    })));
    await sleep(50);
    await s.stop();
    const mark = s.lines.length;
    await sleep(TIMEOUT_MS * 3);
    assert.deepEqual(s.lines.slice(mark).filter((l) => l.includes('TLS handshake error')), []);
    for (const c of idle) c.destroy();
  });
});
