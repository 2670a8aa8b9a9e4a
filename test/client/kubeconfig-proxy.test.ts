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
import { WebhookClient } from '../../core/client/webhook-client.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';
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
  const ca = makeCa({ commonName: 'proxy-test-ca' });
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxy = await connectProxy();
  try {
    const port = (server.address() as AddressInfo).port;
    const dir = tempDir();
    const file = path.join(dir, 'k.conf');
    writeFileSync(file, [
      'clusters:',
      `- name: c\n  cluster: {server: "https://localhost:${port}", proxy-url: "http://who:pa%20ss@127.0.0.1:${proxy.port}", certificate-authority-data: ${Buffer.from(ca.certificatePem).toString('base64')}}`,
      'users: [{name: u, user: {token: secret-t}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
      'current-context: x',
    ].join('\n'));
    const conn = loadKubeconfig(file);
    assert.equal(conn.proxyUrl?.href, `http://who:pa%20ss@127.0.0.1:${proxy.port}/`);
    const client = new RestClient(conn);
    try {
      assert.deepEqual(await client.request('GET', '/api'), { path: '/api', authorization: 'Bearer secret-t' });
    } finally {
      client.close();
    }
    const webhook = new WebhookClient({ connection: conn, kind: 'TokenReview', backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 1 } });
    try {
      assert.deepEqual(await webhook.post('{}'), { path: '/', authorization: 'Bearer secret-t' });
    } finally {
      webhook.close();
    }
    const basic = `Basic ${Buffer.from('who:pa ss').toString('base64')}`;
    assert.deepEqual(proxy.seen, [`CONNECT localhost:${port} ${basic}`, `CONNECT localhost:${port} ${basic}`], 'both clients tunnelled, the server verified by its own name');
  } finally {
    server.closeAllConnections();
    server.close();
    await proxy.close();
  }
});

test('a proxy-url that is no proxy URL is refused with validation.go\'s text', () => {
  const dir = tempDir();
  const file = path.join(dir, 'k.conf');
  const cases: [string, string][] = [
    ['ftp://127.0.0.1:1', `invalid configuration: invalid 'proxy-url' "ftp://127.0.0.1:1" for cluster "c": unsupported scheme "ftp", must be http, https, or socks5`],
    ['http://[::1', `invalid configuration: invalid 'proxy-url' "http://[::1" for cluster "c": could not parse: http://[::1`],
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
