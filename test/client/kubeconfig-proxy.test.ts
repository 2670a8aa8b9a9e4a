// A cluster's proxy-url is honoured as client-go's transport honours it (a CONNECT tunnel through an
// http proxy, TLS to the server inside it), and a malformed one is refused in validation.go's words.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { ProxyAgent } from '../../core/client/proxy-connect.js';
import { RestClient } from '../../core/client/rest-client.js';
import { askBothClients, echoServer, proxiedKubeconfig } from '../helpers/echo-behind-proxy.js';
import { tempDir } from '../helpers/plat.js';

/** A CONNECT-only proxy on 127.0.0.1 that records each request line and Proxy-Authorization. */
async function connectProxy(): Promise<{ port: number; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((_req, res) => { res.writeHead(405); res.end(); });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`${req.method} ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('requests reach an https server through the cluster\'s proxy-url (CONNECT), with its credentials', async () => {
  const server = await echoServer(['127.0.0.1']);
  const proxy = await connectProxy();
  try {
    const conn = loadKubeconfig(proxiedKubeconfig(`https://localhost:${server.port}`, `http://who:pa%20ss@127.0.0.1:${proxy.port}`, server.caPem));
    assert.equal(conn.proxyUrl?.href, `http://who:pa%20ss@127.0.0.1:${proxy.port}/`);
    assert.deepEqual(await askBothClients(conn), [{ path: '/api', authorization: 'Bearer secret-t' }, { path: '/?timeout=30s', authorization: 'Bearer secret-t' }]);
    const basic = `Basic ${Buffer.from('who:pa ss').toString('base64')}`;
    assert.deepEqual(proxy.seen, [`CONNECT localhost:${server.port} ${basic}`, `CONNECT localhost:${server.port} ${basic}`], 'both clients tunnelled, the server verified by its own name');
  } finally {
    server.close();
    await proxy.close();
  }
});

test('a proxy-url that is no proxy URL is refused with validation.go\'s text', () => {
  const dir = tempDir();
  const file = path.join(dir, 'k.conf');
  const cases: [string, string][] = [
    ['ftp://127.0.0.1:1', `invalid configuration: invalid 'proxy-url' "ftp://127.0.0.1:1" for cluster "c": unsupported scheme "ftp", must be http, https, or socks5`],
    // client-go's parseProxyURL takes socks5 but not net/http's socks5h.
    ['socks5h://127.0.0.1:1', `invalid configuration: invalid 'proxy-url' "socks5h://127.0.0.1:1" for cluster "c": unsupported scheme "socks5h", must be http, https, or socks5`],
    ['http://[::1', `invalid configuration: invalid 'proxy-url' "http://[::1" for cluster "c": could not parse: http://[::1`],
    // url.Parse unescapes the user info (WHATWG's URL keeps a bad escape as it is).
    ['http://a%zz@127.0.0.1:1', `invalid configuration: invalid 'proxy-url' "http://a%zz@127.0.0.1:1" for cluster "c": could not parse: http://a%zz@127.0.0.1:1`],
  ];
  for (const [proxyUrl, message] of cases) {
    writeFileSync(file, `clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", proxy-url: "${proxyUrl}"}}]\n`);
    assert.throws(() => loadKubeconfig(file), { message }, proxyUrl);
  }
});

// Go's Transport reads the CONNECT answer with http.ReadResponse: a proxy that closes first fails
// the dial with `unexpected EOF`; one that never answers is given up after its one-minute CONNECT
// deadline (`context deadline exceeded`; shortened here). Before, either hung the request for ever.
test('a proxy that closes or never answers the CONNECT fails the request instead of hanging it', async () => {
  const held: net.Socket[] = [];
  const proxies = await Promise.all(['close', 'silent'].map(async (kind) => {
    const server = net.createServer((s) => {
      s.on('error', () => {});
      s.once('data', () => { if (kind === 'close') s.end(); else held.push(s); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { kind, server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`) };
  }));
  try {
    for (const { kind, url } of proxies) {
      const agent = new ProxyAgent(url, {}, 500);
      const outcome = await new Promise<string>((resolve) => {
        const req = https.request({ host: '127.0.0.1', port: 1, path: '/api', agent }, () => resolve('answered'));
        req.on('error', (e) => resolve(e.message));
        setTimeout(() => resolve('still pending'), 10_000).unref();
        req.end();
      });
      agent.destroy();
      assert.equal(outcome, kind === 'close' ? 'unexpected EOF' : 'context deadline exceeded', kind);
    }
  } finally {
    for (const s of held) s.destroy();
    for (const { server } of proxies) server.close();
  }
});

// Go's RoundTrip returns when the request's context ends even while its proxy dial is still
// waiting; Node told such a request of its timeout only once the tunnel gave it a socket (here
// after the one-minute CONNECT deadline).
test('a request waiting for its tunnel fails at its own timeout', async () => {
  const held: net.Socket[] = [];
  const silent = net.createServer((s) => { s.on('error', () => {}); held.push(s); });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const client = new RestClient({
    server: new URL('https://127.0.0.1:1'), insecureSkipTlsVerify: true,
    proxyUrl: new URL(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`),
  }, { timeoutMs: 300 });
  try {
    const outcome = await Promise.race([
      client.request('GET', '/api').then(() => 'answered', (e: Error) => e.message),
      new Promise<string>((r) => setTimeout(() => r('still pending'), 10_000).unref()),
    ]);
    assert.equal(outcome, 'context deadline exceeded');
  } finally {
    client.close();
    for (const s of held) s.destroy();
    silent.close();
  }
});
