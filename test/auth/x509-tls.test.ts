// Client certificates over real TLS on loopback: the server asks for a certificate but does not
// reject unverified ones (as plat's server does), builds the DER chain from getPeerCertificate,
// and lets the authenticate hook decide.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { createX509Authenticator } from '../../plugins/authn-x509/index.js';
import { loadCaBundle } from '../../core/authn/x509/index.js';
import { createPki, daysAfterIssue, type Issued, type Pki } from './pki.js';
import { boot, request } from './support.js';

let pki: Pki;
let server: Server;
let port: number;

/** The presented chain, leaf first, as DER: walk issuerCertificate until it repeats. */
function peerChain(socket: TLSSocket): Buffer[] {
  const chain: Buffer[] = [];
  let cert: { raw?: Buffer; issuerCertificate?: unknown } | undefined = socket.getPeerCertificate(true);
  while (cert?.raw && !chain.some((c) => c.equals(cert!.raw!))) {
    chain.push(cert.raw);
    cert = cert.issuerCertificate as typeof cert;
  }
  return chain;
}

before(async () => {
  pki = createPki();
  const { host } = boot(
    [createX509Authenticator({ now: () => daysAfterIssue(pki.alice, 1) }), AnonymousAuthenticator],
    [`--client-ca-file=${pki.bundlePath}`],
  );
  server = createServer({
    key: pki.server.keyPem,
    cert: pki.server.pem,
    requestCert: true,
    rejectUnauthorized: false,
    ca: loadCaBundle(pki.bundlePath).map((c) => c.toString()),
  }, (req, res) => {
    const authReq = request({ headers: req.headers, peerChain: peerChain(req.socket as TLSSocket) });
    host.hooks.authenticate.promise(authReq).then((user) => {
      res.writeHead(user ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: user ?? null, reasons: authReq.reasons }));
    }, (err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  pki.cleanup();
});

function call(client?: { chain: readonly Issued[]; key: Issued }): Promise<{ status: number; body: { user: { name: string; groups: string[] } | null; reasons: string[] } }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      host: '127.0.0.1', port, path: '/', method: 'GET', agent: false, ca: pki.root.pem,
      ...(client ? { cert: client.chain.map((c) => c.pem).join(''), key: client.key.keyPem } : {}),
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('X509Authenticator over TLS', () => {
  it('authenticates a client certificate signed by the root', async () => {
    const { status, body } = await call({ chain: [pki.alice], key: pki.alice });
    assert.equal(status, 200);
    assert.equal(body.user?.name, 'alice');
    assert.deepEqual(body.user?.groups, ['dev', 'ops']);
  });

  it('authenticates a client that sends its intermediate', async () => {
    const { status, body } = await call({ chain: [pki.bob, pki.intermediate], key: pki.bob });
    assert.equal(status, 200);
    assert.equal(body.user?.name, 'bob');
  });

  it('rejects a certificate from a foreign CA although the handshake succeeded', async () => {
    const { status, body } = await call({ chain: [pki.foreign], key: pki.foreign });
    assert.equal(status, 401);
    assert.equal(body.user, null);
    assert.equal(body.reasons.length, 1);
    assert.match(body.reasons[0] ?? '', /^verifying certificate SN=\d+, SKID=[0-9A-F:]*, AKID=[0-9A-F:]* failed: x509: certificate signed by unknown authority$/);
  });

  it('rejects a certificate without clientAuth', async () => {
    const { status, body } = await call({ chain: [pki.serverOnly], key: pki.serverOnly });
    assert.equal(status, 401);
    assert.equal(body.reasons.length, 1);
    assert.match(body.reasons[0] ?? '', /^verifying certificate SN=\d+, SKID=[0-9A-F:]*, AKID=[0-9A-F:]* failed: x509: certificate specifies an incompatible key usage$/);
  });

  it('treats a client without certificate as anonymous', async () => {
    const { status, body } = await call();
    assert.equal(status, 200);
    assert.equal(body.user?.name, 'system:anonymous');
  });
});
