// --tls-cipher-suites, --tls-min-version, --tls-sni-cert-key and --tls-cert-file/
// --tls-private-key-file of the API server and the controller manager, checked with real TLS
// handshakes from node:tls: Go's suite names, the TLS 1.2 suites limited to those given (TLS 1.3
// keeps its own, as Go's), unknown names refused at start-up with upstream's message, insecure ones
// warned about; the serving certificate chosen by SNI name, by local address without one, else the
// default; a certificate and key that are not one pair refused at start-up, naming the files. One
// table for both components.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeCert, makeServingCert, writeCertKeyFiles, type TestCredential } from '../helpers/certs.js';
import { Client, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { endpoints } from './endpoints.js';

/** The negotiated protocol and suite, or the handshake's error. */
function handshake(address: { host: string; port: number }, options: tls.ConnectionOptions): Promise<{ protocol: string | null; cipher: string; names: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ ...address, rejectUnauthorized: false, ...options }, () => {
      const result = { protocol: socket.getProtocol(), cipher: socket.getCipher().name, names: socket.getPeerCertificate().subjectaltname };
      socket.end();
      resolve(result);
    });
    socket.once('error', reject);
  });
}

describe('--tls-cipher-suites and --tls-min-version', () => {
  let plat: RunningPlat;
  const running: { stop(): Promise<void> }[] = [];
  before(async () => { plat = await startInProcess({ args: ['--authorization-mode=RBAC'] }); });
  after(async () => {
    for (const r of running) await r.stop();
    await plat?.stop();
  });

  for (const c of endpoints(() => plat, running)) {
    it(`${c.name}: only the suites given are negotiated with TLS 1.2`, async () => {
      const e = await c.start(['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256', '--tls-min-version', 'VersionTLS12']);
      const limited = await handshake(e.address, { maxVersion: 'TLSv1.2' });
      assert.deepEqual([limited.protocol, limited.cipher], ['TLSv1.2', 'ECDHE-ECDSA-AES128-GCM-SHA256']);
      await assert.rejects(handshake(e.address, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' }), /handshake failure|no shared cipher/i);
      assert.equal((await handshake(e.address, {})).protocol, 'TLSv1.3', 'TLS 1.3 is not limited by the list');
      assert.equal((await e.admin.get('/healthz')).status, 200, 'the endpoint serves over the limited suites');

      const open = await c.start([]);
      // Without the flag, Go's default suites: ECDHE with AEADs or CBC-SHA, never CBC-SHA256/384.
      for (const ok of ['ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-ECDSA-AES128-SHA']) {
        assert.equal((await handshake(open.address, { maxVersion: 'TLSv1.2', ciphers: ok })).cipher, ok, 'Go\'s default suites');
      }
      for (const no of ['ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES256-SHA384']) {
        await assert.rejects(handshake(open.address, { maxVersion: 'TLSv1.2', ciphers: no }), /handshake failure|no shared cipher/i, no);
      }
    });

    it(`${c.name}: --tls-min-version VersionTLS13 refuses TLS 1.2`, async () => {
      const e = await c.start(['--tls-min-version', 'VersionTLS13', '--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']);
      await assert.rejects(handshake(e.address, { maxVersion: 'TLSv1.2' }), /protocol version|alert/i);
      assert.equal((await handshake(e.address, {})).protocol, 'TLSv1.3');
      // Only the kubelet says so; secure_serving.go does not.
      assert.ok(!e.logs.some((l) => l.includes('TLS 1.3 cipher suites are not configurable')), e.logs.join('\n'));
      assert.ok(!e.logs.some((l) => l.includes('Forcing use of http/1.1 only')), e.logs.join('\n'));
      const h1 = await c.start(['--disable-http2-serving']);
      assert.ok(h1.logs.some((l) => l.includes('Forcing use of http/1.1 only')), h1.logs.join('\n'));
    });

    it(`${c.name}: --tls-min-version VersionTLS10 serves TLS 1.0 clients, and says what that costs`, async () => {
      const e = await c.start(['--tls-min-version', 'VersionTLS10']);
      // The client lowers its own security level too: OpenSSL 3 offers TLS 1.0 only at level 0.
      assert.equal((await handshake(e.address, { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' })).protocol, 'TLSv1');
      assert.equal((await handshake(e.address, { maxVersion: 'TLSv1.2' })).protocol, 'TLSv1.2');
      assert.ok(e.logs.some((l) => l.includes(`--tls-min-version VersionTLS10: to serve TLS 1.0 and 1.1, this runtime's TLS library (OpenSSL ${process.versions.openssl}) runs at security level 0`)), e.logs.join('\n'));
      const modern = await c.start(['--tls-min-version', 'VersionTLS12']);
      await assert.rejects(handshake(modern.address, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' }), /alert|protocol|handshake|version/i);
      assert.ok(!modern.logs.some((l) => l.includes('security level 0')), modern.logs.join('\n'));
    });

    it(`${c.name}: unknown suites and versions stop start-up; insecure suites are warned about`, async () => {
      await assert.rejects(c.start(['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_NOPE']), /Cipher suite TLS_NOPE not supported or doesn't exist/);
      await assert.rejects(c.start(['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,constructor']), /Cipher suite constructor not supported or doesn't exist/);
      // A plain string flag upstream, refused by cliflag.TLSVersion when the server is configured.
      await assert.rejects(c.start(['--tls-min-version', 'VersionTLS14']), /--tls-min-version: unknown tls version "VersionTLS14"/);
      // A name every object has (Object.prototype's) is no version either.
      await assert.rejects(c.start(['--tls-min-version', 'toString']), /--tls-min-version: unknown tls version "toString"/);
      const e = await c.start(['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_CBC_SHA']);
      assert.ok(e.logs.some((l) => l.includes("Use of insecure cipher 'TLS_RSA_WITH_AES_128_CBC_SHA' detected.")), e.logs.join('\n'));
    });

    it(`${c.name}: --tls-sni-cert-key chooses the certificate by SNI name, else by local address, else the default`, async () => {
      const dir = tempDir();
      const ca = makeCa();
      const files = (name: string, cred: TestCredential) => writeCertKeyFiles(dir, name, cred);
      const e = await c.start([
        '--tls-sni-cert-key', files('named', makeServingCert(ca, ['sni.example.com'])),
        '--tls-sni-cert-key', `${files('local', makeServingCert(ca, ['by-address.test'], ['127.0.0.1']))}:127.0.0.1`,
        '--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
      ]);
      assert.equal((await handshake(e.address, { servername: 'sni.example.com' })).names, 'DNS:sni.example.com');
      assert.equal((await handshake(e.address, { servername: 'SNI.example.com', maxVersion: 'TLSv1.2' })).cipher, 'ECDHE-ECDSA-AES128-GCM-SHA256', 'a certificate chosen by name keeps the other settings');
      const byAddress = 'DNS:by-address.test, IP Address:127.0.0.1';
      assert.equal((await handshake(e.address, {})).names, byAddress, 'no SNI name: the certificate mapped to 127.0.0.1');
      const fallback = await handshake(e.address, { servername: 'unknown.test' });
      assert.ok(fallback.names !== 'DNS:sni.example.com' && fallback.names !== byAddress, `an unknown name gets the default certificate, not ${fallback.names}`);
      const admin = new Client(`https://127.0.0.1:${e.address.port}`, { ...e.admin.creds, ca: ca.certificatePem });
      assert.equal((await admin.get('/debug/pprof/')).status, 200, 'over the certificate chosen by address, client certificates still authenticate');

      await assert.rejects(c.start(['--tls-sni-cert-key', path.join(dir, 'named.crt')]), /expected comma separated certificate and key file paths/);
      await assert.rejects(c.start(['--tls-sni-cert-key', `${path.join(dir, 'named.crt')},${path.join(dir, 'local.key')}`]), /failed to load SNI cert and key: tls: private key does not match public key/);
    });

    it(`${c.name}: a serving certificate and key must be one pair, or start-up stops naming the files`, async () => {
      const dir = tempDir();
      const ca = makeCa();
      const file = (name: string, pem: string) => { writeFileSync(path.join(dir, name), pem); return path.join(dir, name); };
      const ec = makeServingCert(ca, ['ec.example.com']);
      const rsa = makeCert(ca, { commonName: 'rsa.example.com', dnsNames: ['rsa.example.com'], extKeyUsage: ['server auth'], keyType: 'rsa-2048' });
      const [ecCrt, rsaCrt, rsaKey, otherEcKey, garbage] = [file('ec.crt', ec.certificatePem), file('rsa.crt', rsa.certificatePem),
        file('rsa.key', rsa.privateKeyPem), file('other-ec.key', makeServingCert(ca, ['other']).privateKeyPem), file('garbage', 'not PEM\n')];
      const pair = (crt: string, key: string) => ['--tls-cert-file', crt, '--tls-private-key-file', key];

      // --cert-dir: the controller manager's helper then trusts no generated pair it would look for.
      const served = await c.start([...pair(rsaCrt, rsaKey), '--cert-dir', dir]);
      assert.equal((await handshake(served.address, {})).names, 'DNS:rsa.example.com', 'a pair of another algorithm than the default serves');

      // Exit 1 as upstream's tls.LoadX509KeyPair failing. node:tls alone takes the first key (of
      // another algorithm than the certificate's) and then fails every handshake; it refuses the
      // second, but naming no file.
      const refused: [string[], string][] = [
        [pair(ecCrt, rsaKey), `--tls-cert-file ${ecCrt} and --tls-private-key-file ${rsaKey}: tls: private key type does not match public key type`],
        [pair(ecCrt, otherEcKey), `--tls-cert-file ${ecCrt} and --tls-private-key-file ${otherEcKey}: tls: private key does not match public key`],
        [pair(garbage, rsaKey), `--tls-cert-file ${garbage}: tls: failed to find any PEM data in certificate input`],
        [pair(rsaCrt, rsaCrt), `--tls-private-key-file ${rsaCrt}: tls: found a certificate rather than a key in the PEM for the private key`],
        [pair(path.join(dir, 'missing.crt'), rsaKey), `open ${path.join(dir, 'missing.crt')}: no such file or directory`],
        [['--tls-sni-cert-key', `${ecCrt},${rsaKey}`], 'failed to load SNI cert and key: tls: private key type does not match public key type'],
      ];
      for (const [args, message] of refused) await assert.rejects(c.start(args), { name: 'StartupError', exitCode: 1, message });
      // Half a pair: NewDynamicServingContentFromFiles' text (exit 2, plat's for a command-line mistake).
      for (const args of [['--tls-cert-file', rsaCrt], ['--tls-private-key-file', rsaKey]]) {
        await assert.rejects(c.start(args), { name: 'StartupError', exitCode: 2, message: 'missing filename for serving cert' });
      }
    });
  }
});
