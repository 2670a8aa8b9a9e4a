// Real TLS on 127.0.0.1: PKI-made serving and client certificates work with node:tls, and a client
// certificate from another CA is refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { ensureCa, ensureClientCertificate, ensureSelfSignedServing, ensureServingFromCa, type CertKeyPair } from '../../core/pki/index.js';
import { tempDir } from '../helpers/openssl.js';

interface Seen {
  authorized: boolean;
  subject: { CN?: string; O?: string | string[] } | undefined;
}

/** A TLS server requiring client certificates from `clientCa`; reports what it saw of each client. */
async function startServer(serving: CertKeyPair, clientCa: string): Promise<{ port: number; seen: Promise<Seen | Error>; close: () => Promise<void> }> {
  let report!: (s: Seen | Error) => void;
  const seen = new Promise<Seen | Error>((r) => (report = r));
  const server = tls.createServer({ key: serving.privateKeyPem, cert: serving.certificatePem, ca: clientCa, requestCert: true, rejectUnauthorized: true }, (socket) => {
    const peer = socket.getPeerCertificate();
    report({ authorized: socket.authorized, subject: peer.subject as Seen['subject'] });
    socket.end('hello\n');
  });
  server.on('tlsClientError', (e) => report(e));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

/** Connects, reads until the server closes; resolves with the data or the error. */
function connect(options: tls.ConnectionOptions): Promise<string | Error> {
  return new Promise((resolve) => {
    let data = '';
    const socket = tls.connect(options);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', (e) => resolve(e));
    socket.on('close', () => resolve(data));
  });
}

test('TLS handshake with a client certificate from ensureClientCertificate', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const serving = await ensureServingFromCa(ca, d.dir, { hosts: ['localhost', '127.0.0.1'], baseName: 'apiserver' });
  const admin = await ensureClientCertificate(ca, d.dir, { commonName: 'plat-admin', organizations: ['system:masters'], baseName: 'admin' });
  const server = await startServer(serving, ca.certificatePem);
  t.after(() => server.close());

  const got = await connect({ host: '127.0.0.1', port: server.port, ca: ca.certificatePem, cert: admin.certificatePem, key: admin.privateKeyPem });
  assert.equal(got, 'hello\n');
  const seen = await server.seen;
  assert.ok(!(seen instanceof Error), String(seen));
  assert.equal(seen.authorized, true);
  assert.equal(seen.subject?.CN, 'plat-admin');
  assert.equal(seen.subject?.O, 'system:masters');
});

test('a client certificate from another CA is refused', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const rogueCa = await ensureCa(`${d.dir}/rogue`, 'rogue-ca');
  const serving = await ensureServingFromCa(ca, d.dir, { hosts: ['127.0.0.1'], baseName: 'apiserver' });
  const rogue = await ensureClientCertificate(rogueCa, d.dir, { commonName: 'mallory', organizations: ['system:masters'], baseName: 'rogue' });
  const server = await startServer(serving, ca.certificatePem);
  t.after(() => server.close());

  const got = await connect({ host: '127.0.0.1', port: server.port, ca: ca.certificatePem, cert: rogue.certificatePem, key: rogue.privateKeyPem });
  assert.notEqual(got, 'hello\n');
  const seen = await server.seen;
  assert.ok(seen instanceof Error, 'the server rejected the handshake');
});

test('the self-signed serving file works as the client trust bundle', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const serving = await ensureSelfSignedServing(d.dir, { hosts: ['api.example'] });
  const client = await ensureClientCertificate(ca, d.dir, { commonName: 'u', organizations: [], baseName: 'u' });
  const server = await startServer(serving, ca.certificatePem);
  t.after(() => server.close());
  const got = await connect({ host: '127.0.0.1', port: server.port, servername: 'localhost', ca: serving.certificatePem, cert: client.certificatePem, key: client.privateKeyPem });
  assert.equal(got, 'hello\n');
});
