// The OIDC client's GET of discovery and key documents over a kept-alive connection that the issuer
// closes just as the next request arrives (its idle timeout firing): sent again once on a new
// connection, as Go's transport does for a GET on a reused connection.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createFetchJson } from '../../plugins/authn-oidc/https-get.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';

describe('createFetchJson on a kept-alive connection the server drops', () => {
  const ca = makeCa({ commonName: 'oidc-fetch-ca' });
  const serving = makeServingCert(ca, [], ['127.0.0.1']);
  let requestsOnFirstSocket = 0;
  let firstSocket: unknown;
  let connections = 0;
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    // The second request on the first connection: the server drops it without an answer.
    if (req.socket === firstSocket && ++requestsOnFirstSocket === 2) { req.socket.destroy(); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ n: connections }));
  });
  server.on('secureConnection', (s) => { connections++; firstSocket ??= s; });
  const fetcher = createFetchJson({ ca: ca.certificatePem });
  after(async () => { fetcher.close(); server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  it('sends the GET again once on a new connection, and fails a fresh connection\'s reset as before', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/keys`;
    assert.deepEqual(await fetcher.fetchJson(url), { n: 1 });
    // The agent reuses the first connection; the server drops it; the GET goes out again.
    assert.deepEqual(await fetcher.fetchJson(url), { n: 2 });
    assert.equal(connections, 2);
    assert.equal(requestsOnFirstSocket, 2);
  });
});
