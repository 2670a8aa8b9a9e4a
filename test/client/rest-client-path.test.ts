// A server URL with a path (`server: https://host:6443/prefix`, an API server behind a proxy that
// routes by prefix) keeps that path in every request, as client-go appends the API path to it. A
// plain-HTTP server on a loopback host, which a kubeconfig may name (kubeconfig.ts), is spoken to
// over plain HTTP.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { apiUrl, RestClient } from '../../core/client/rest-client.js';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';

describe('REST client and a server URL with a path', () => {
  const seen: string[] = [];
  const tokens: (string | undefined)[] = [];
  let server: http.Server;
  let port = 0;
  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      tokens.push(req.headers.authorization);
      const watch = (req.url ?? '').includes('watch=true');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(watch ? '' : JSON.stringify({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' }, items: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => { server.close(); });

  it('apiUrl puts the API path after the server\'s', () => {
    assert.equal(apiUrl(new URL('https://h:6443/prefix'), '/apis/g/v1/x?watch=true').href, 'https://h:6443/prefix/apis/g/v1/x?watch=true');
    assert.equal(apiUrl(new URL('https://h:6443/prefix/'), '/api/v1').href, 'https://h:6443/prefix/api/v1');
    assert.equal(apiUrl(new URL('https://h:6443'), '/api/v1').href, 'https://h:6443/api/v1');
  });

  it('get, list, update and watch go to /prefix/apis/...', async () => {
    seen.length = 0;
    const client = new RestClient({ server: new URL('https://api.example:6443/prefix/'), dial: () => net.connect(port, '127.0.0.1') });
    try {
      const csr = await client.get<Csr>(CSR_RESOURCE, 'x');
      await client.list(CSR_RESOURCE, { fieldSelector: 'metadata.name=x' });
      await client.update(CSR_RESOURCE, csr, 'approval');
      for await (const _ of client.watch(CSR_RESOURCE, { resourceVersion: '0' })) break;
    } finally {
      client.close();
    }
    const base = '/prefix/apis/certificates.platform/v1/certificatesigningrequests';
    assert.deepEqual(seen.map((s) => s.replace(/timeoutSeconds=\d+&?/, '')), [
      `GET ${base}/x`, `GET ${base}?fieldSelector=metadata.name%3Dx`, `PUT ${base}/x/approval`, `GET ${base}?allowWatchBookmarks=true&resourceVersion=0&watch=true`,
    ]);
  });

  it('an http:// server on a loopback host gets plain HTTP, the path and the token', async () => {
    seen.length = 0;
    tokens.length = 0;
    const client = new RestClient({ server: new URL(`http://127.0.0.1:${port}/prefix`), token: 'loopback-token' });
    try {
      assert.equal((await client.get<Csr>(CSR_RESOURCE, 'x')).metadata.name, 'x');
      for await (const _ of client.watch(CSR_RESOURCE, { resourceVersion: '0' })) break;
    } finally {
      client.close();
    }
    assert.deepEqual(seen.map((s) => s.replace(/\?.*/, '')), ['GET /prefix/apis/certificates.platform/v1/certificatesigningrequests/x', 'GET /prefix/apis/certificates.platform/v1/certificatesigningrequests']);
    assert.deepEqual(tokens, ['Bearer loopback-token', 'Bearer loopback-token']);
  });
});
