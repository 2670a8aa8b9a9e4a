// The secure port's TLS: it waits for the identity subsystem's serving pair (tlsCertFile and
// tlsPrivateKeyFile checked to be one), or, told there is none (serverTLSBootstrap before its
// certificate is issued), listens and fails every handshake with upstream's log line; switches to a new one in place (node:tls and `openssl
// s_client` see the new certificate on the same port while a connection opened before the switch
// keeps working on the old one) unless the new one is unusable, answers HEAD over HTTP/2, honours
// tlsMinVersion and tlsCipherSuites with Go's names, and refuses unknown names at start-up.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import http2 from 'node:http2';
import tls from 'node:tls';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import { createLogger } from '../../../core/log.js';
import { createServerSubsystem } from '../../../plugins/nodeagent-server/index.js';
import { runServingIdentity } from '../../../plugins/nodeagent-identity/serving-identity.js';
import { tlsSettings } from '../../../core/server/tls-settings.js';
import { makeCa, makeCert } from '../../helpers/certs.js';
import { h2Fetch } from '../../helpers/http2-client.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { freePort, tempDir } from '../../helpers/plat.js';
import { opensslPresented, request, selfSignedPair, serverConfig, startServer, waitForPort, type RunningServer } from './support.js';

const rsaPair = () => makeCert(makeCa(), { commonName: 'node-1', dnsNames: ['node-1'], keyType: 'rsa-2048' });
const leafOf = (pem: string) => new X509Certificate(pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 25));

function connect(port: number, o: tls.ConnectionOptions = {}): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], ...o });
    s.once('secureConnect', () => resolve(s));
    s.once('error', reject);
  });
}

/** One HTTP/1.1 request on an open TLS socket, reading until the answer's body is complete. */
function exchange(s: tls.TLSSocket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const onData = (c: Buffer) => {
      data += c.toString('utf8');
      const m = /content-length: (\d+)/i.exec(data);
      const head = data.indexOf('\r\n\r\n');
      if (m && head >= 0 && data.length >= head + 4 + Number(m[1])) { s.off('data', onData); resolve(data); }
    };
    s.on('data', onData);
    s.once('error', reject);
    s.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('node agent secure port: TLS', () => {
  const running: RunningServer[] = [];
  after(async () => { for (const r of running) await r.stop(); });

  it('listens only once the serving pair is set, then switches certificates without closing the port or open connections', async () => {
    const a = selfSignedPair('first.example');
    const b = selfSignedPair('second.example');
    const server = await startServer({ config: await serverConfig() });
    running.push(server);
    await assert.rejects(connect(server.port), /ECONNREFUSED/, 'no listener before the pair is set');
    server.ctx.servingPair.set(a);
    await waitForPort(server.port, server.done);

    const old = await connect(server.port);
    assert.equal(old.getPeerX509Certificate()!.fingerprint256, leafOf(a.cert).fingerprint256);
    assert.match(await exchange(old, '/healthz'), /^HTTP\/1.1 200 OK[\s\S]*\r\n\r\nok$/);

    server.ctx.servingPair.set(b);
    const fresh = await connect(server.port);
    assert.equal(fresh.getPeerX509Certificate()!.fingerprint256, leafOf(b.cert).fingerprint256, 'a new handshake gets the new certificate');
    fresh.destroy();

    const { pem: presented, output } = await opensslPresented(server.port);
    assert.ok(presented, output);
    assert.equal(new X509Certificate(presented).fingerprint256, leafOf(b.cert).fingerprint256, 'openssl s_client sees the new certificate');
    assert.match(new X509Certificate(presented).subjectAltName ?? '', /second\.example/);

    assert.match(await exchange(old, '/pods'), /^HTTP\/1.1 200 OK[\s\S]*"kind":"PodList"/, 'the connection opened before the switch still works');
    assert.equal(old.destroyed, false);
    old.destroy();

    const r = await request(server.port, '/healthz', { ca: b.cert });
    assert.equal(r.status, 200, 'the new certificate verifies for clients that trust it');
  });

  it('with no serving certificate it listens and fails every handshake, logging upstream\'s line, until a pair is set', async () => {
    const lines: string[] = [];
    const server = await startServer({ config: await serverConfig(), logger: createLogger({ write: (l) => lines.push(l) }) });
    running.push(server);
    server.ctx.servingPair.set(null);
    await waitForPort(server.port, server.done);
    const refused = (what: string) => assert.rejects(connect(server.port), /handshake failure|alert/i, what);
    await refused('node:tls');
    await assert.rejects(connect(server.port, { maxVersion: 'TLSv1.2' }), /handshake failure|alert/i);
    const { pem, output } = await opensslPresented(server.port);
    assert.equal(pem, undefined, 'openssl s_client was shown a certificate');
    assert.match(output, /no peer certificate available/);
    // waitForPort's bare TCP probe closes before a ClientHello: Go's kubelet logs that EOF too.
    const logged = lines.filter((l) => l.includes('http: TLS handshake error from 127.0.0.1:') && !/: EOF$/.test(l));
    assert.equal(logged.length, 3, lines.join('\n'));
    for (const l of logged) assert.match(l, /http: TLS handshake error from 127\.0\.0\.1:\d+: no serving certificate available for the nodeagent/);

    const issued = selfSignedPair('issued.example');
    server.ctx.servingPair.set(issued);
    const s = await connect(server.port);
    assert.equal(s.getPeerX509Certificate()!.fingerprint256, leafOf(issued.cert).fingerprint256);
    assert.match(await exchange(s, '/healthz'), /^HTTP\/1.1 200 OK/);
    // An expired certificate with no successor: handshakes fail again, the open connection stays.
    server.ctx.servingPair.set(null);
    await refused('after the certificate is withdrawn');
    assert.match(await exchange(s, '/pods'), /^HTTP\/1.1 200 OK/);
    s.destroy();
  });

  it('speaks HTTP/2 as well as HTTP/1.1 (ALPN h2), as Go\'s server does', async () => {
    const pair = selfSignedPair();
    const server = await startServer({ config: await serverConfig(), pair });
    running.push(server);
    const session = http2.connect(`https://localhost:${server.port}`, { ca: pair.cert, host: '127.0.0.1' });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = session.request({ ':path': '/pods' });
        let status = 0;
        let body = '';
        req.on('response', (h) => { status = Number(h[':status']); });
        req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
        req.on('end', () => resolve({ status, body }));
        req.on('error', reject);
        req.end();
      });
      assert.equal(answer.status, 200);
      assert.equal(JSON.parse(answer.body).kind, 'PodList');
      assert.equal(session.alpnProtocol, 'h2');
      // HEAD is answered over HTTP/2 too: as GET where any method is served, 405 where only GET is (go-restful's).
      const [get, head] = [await h2Fetch(session, 'GET', '/healthz'), await h2Fetch(session, 'HEAD', '/healthz')];
      assert.equal(head.status, 200);
      assert.deepEqual(head.headers, { ...get.headers, 'content-length': String(get.body.length) });
      assert.equal(head.body.length, 0);
      const refused = await h2Fetch(session, 'HEAD', '/pods');
      assert.deepEqual([refused.status, refused.body.length], [405, 0]);
    } finally {
      session.close();
    }
  });

  it('keeps the current certificate when the new pair is unusable', async () => {
    const a = selfSignedPair();
    const server = await startServer({ config: await serverConfig(), pair: a });
    running.push(server);
    // node:tls refuses the first key itself, but takes the second (another algorithm than the
    // certificate's) and would then fail every handshake.
    const otherKeys: [string, string][] = [['of the same algorithm', selfSignedPair().key], ['of another algorithm', rsaPair().privateKeyPem]];
    for (const [which, key] of otherKeys) {
      server.ctx.servingPair.set({ cert: a.cert, key });
      const s = await connect(server.port);
      assert.equal(s.getPeerX509Certificate()!.fingerprint256, leafOf(a.cert).fingerprint256, which);
      s.destroy();
    }
  });

  it('fails the identity subsystem on tlsCertFile and tlsPrivateKeyFile that are not one pair, naming them', async () => {
    const dir = tempDir();
    const file = (name: string, pem: string) => { writeFileSync(path.join(dir, name), pem); return path.join(dir, name); };
    const ec = selfSignedPair();
    const rsa = rsaPair();
    const [ecCrt, ecKey, rsaKey, garbage] = [file('ec.crt', ec.cert), file('ec.key', ec.key), file('rsa.key', rsa.privateKeyPem), file('garbage', 'not PEM\n')];
    const serve = async (tlsCertFile: string, tlsPrivateKeyFile: string) => {
      const flags = new Flags();
      flags.define({ name: 'cert-dir', type: 'string', section: '', help: '' });
      const ctx = nodeAgentTestContext({ standalone: true, flags, config: { enableServer: true, tlsCertFile, tlsPrivateKeyFile } });
      // Stopped at once: the files are read and checked, and not watched afterwards.
      await runServingIdentity(ctx, {}, AbortSignal.abort());
      return ctx.servingPair.get();
    };
    assert.deepEqual(await serve(ecCrt, ecKey), ec);
    const refused: [string, string, string][] = [
      [ecCrt, rsaKey, `tlsCertFile ${ecCrt} and tlsPrivateKeyFile ${rsaKey}: tls: private key type does not match public key type`],
      [garbage, ecKey, `tlsCertFile ${garbage}: tls: failed to find any PEM data in certificate input`],
      [ecCrt, garbage, `tlsPrivateKeyFile ${garbage}: tls: failed to find any PEM data in key input`],
    ];
    for (const [crt, key, message] of refused) await assert.rejects(serve(crt, key), { message });
  });

  it('honours tlsMinVersion and tlsCipherSuites with Go\'s names', async () => {
    const pair = selfSignedPair();
    const v13 = await startServer({ config: await serverConfig({ tlsMinVersion: 'VersionTLS13' }), pair });
    running.push(v13);
    await assert.rejects(connect(v13.port, { maxVersion: 'TLSv1.2' }), /version|protocol|alert/i);
    const s13 = await connect(v13.port);
    assert.equal(s13.getProtocol(), 'TLSv1.3');
    s13.destroy();

    const suites = await startServer({ config: await serverConfig({ tlsCipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'] }), pair });
    running.push(suites);
    const s12 = await connect(suites.port, { maxVersion: 'TLSv1.2' });
    assert.equal(s12.getCipher().standardName, 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384');
    s12.destroy();
    await assert.rejects(connect(suites.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }), /handshake|alert|cipher/i);
  });

  it('refuses unknown versions and suites at start-up, naming the field', async () => {
    const build = async (over: Parameters<typeof serverConfig>[0]) => createServerSubsystem(nodeAgentTestContext({ standalone: true, config: await serverConfig(over) }));
    await assert.rejects(build({ tlsMinVersion: 'VersionTLS14' }), { message: 'tlsMinVersion: unknown tls version "VersionTLS14"' });
    await assert.rejects(build({ tlsCipherSuites: ['TLS_NOT_A_SUITE'] }), { message: "tlsCipherSuites: Cipher suite TLS_NOT_A_SUITE not supported or doesn't exist" });
    // No suites: Go's default list (ECDHE, AEADs then CBC-SHA), not OpenSSL's.
    // Go's TLS 1.3 suites lead, in Go's order (OpenSSL's own puts AES-256 first).
    const tls13 = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:';
    const goDefaults = tls13 + 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:'
      + 'ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA';
    assert.deepEqual(tlsSettings('', undefined), { minVersion: 'TLSv1.2', ciphers: goDefaults, insecure: [], suitesIgnored: false, securityLevelLowered: false });
    assert.equal(tlsSettings('', ['TLS_AES_128_GCM_SHA256']).ciphers, goDefaults, 'only TLS 1.3 names: TLS 1.2 keeps the defaults');
    const weak = tlsSettings('VersionTLS12', ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256']);
    assert.deepEqual(weak, { minVersion: 'TLSv1.2', ciphers: `${tls13}AES128-GCM-SHA256`, insecure: ['TLS_RSA_WITH_AES_128_GCM_SHA256'], suitesIgnored: false, securityLevelLowered: false });
    assert.equal(tlsSettings('VersionTLS13', ['TLS_AES_128_GCM_SHA256']).suitesIgnored, true);
    // OpenSSL 3 (Node 20's) negotiates TLS 1.0/1.1 only at security level 0.
    const openssl3 = Number.parseInt(process.versions.openssl, 10) >= 3;
    assert.equal(tlsSettings('VersionTLS11', undefined).securityLevelLowered, openssl3);
    if (openssl3) {
      assert.equal(tlsSettings('VersionTLS10', undefined).ciphers, `${goDefaults}:@SECLEVEL=0`);
      assert.equal(tlsSettings('VersionTLS11', ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']).ciphers, `${tls13}ECDHE-ECDSA-AES128-GCM-SHA256:@SECLEVEL=0`);
    }
  });

  it('names the address and port it cannot bind', async () => {
    const port = await freePort();
    const first = await startServer({ config: await serverConfig({ port }), pair: selfSignedPair() });
    running.push(first);
    const second = await startServer({ config: await serverConfig({ port }) });
    second.ctx.servingPair.set(selfSignedPair());
    await assert.rejects(second.done, { message: `the secure server cannot listen on 127.0.0.1:${port}: address already in use` });
    const health = await startServer({ config: await serverConfig({ healthzPort: port }) });
    await assert.rejects(health.done, { message: `the health server cannot listen on 127.0.0.1:${port}: address already in use` });
  });
});
