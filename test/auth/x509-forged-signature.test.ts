// A client certificate that names plat's CA as its issuer but was signed by another key is
// answered as any refused certificate is: 401 and upstream's log line, over TLS 1.2 and 1.3,
// HTTP/1.1 and HTTP/2. Before, OpenSSL's verification error stayed queued on the thread and the
// connection's first read failed with it: an empty reply, every time over TLS 1.2.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import path from 'node:path';
import type { SecureVersion } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const ROUNDS = 4;

describe('a client certificate with a forged signature', () => {
  let plat: RunningPlat;
  let ca: string;
  let forged: { cert: string; key: string };
  let dir: string;
  const lines: string[] = [];
  before(async () => {
    plat = await startInProcess({ logger: createLogger({ write: (l) => lines.push(l) }) });
    ca = readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), 'utf8');
    // A CA of the forger's with plat's CA's name signs a leaf without an authority key identifier,
    // so OpenSSL takes plat's CA for its issuer and checks the signature (made with openssl:
    // plat's own builder always writes the identifier, which sends OpenSSL elsewhere).
    dir = tempDir('plat-forged-');
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'forger.key');
    ssl('req', '-x509', '-new', '-key', 'forger.key', '-subj', `/${new X509Certificate(ca).subject.replace(/\n/g, '/')}`, '-days', '1', '-out', 'fake-ca.crt');
    ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'leaf.key');
    ssl('req', '-new', '-key', 'leaf.key', '-subj', '/O=system:masters/CN=mallory', '-out', 'leaf.csr');
    writeFileSync(path.join(dir, 'ext.cnf'), 'extendedKeyUsage=clientAuth\nauthorityKeyIdentifier=none\nsubjectKeyIdentifier=none\n');
    ssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'fake-ca.crt', '-CAkey', 'forger.key', '-CAcreateserial', '-days', '1', '-extfile', 'ext.cnf', '-out', 'leaf.crt');
    const leaf = new X509Certificate(readFileSync(path.join(dir, 'leaf.crt')));
    assert.equal(leaf.issuer, new X509Certificate(ca).subject);
    assert.equal(leaf.checkIssued(new X509Certificate(ca)), true, 'plat\'s CA\'s name and no key identifier to tell them apart');
    assert.equal(leaf.verify(new X509Certificate(ca).publicKey), false);
    forged = { cert: leaf.toString(), key: readFileSync(path.join(dir, 'leaf.key'), 'utf8') };
  });
  after(async () => { await plat?.stop(); if (dir) rmSync(dir, { recursive: true, force: true }); });

  const url = () => new URL(plat.url);

  function http1(maxVersion: SecureVersion): Promise<string> {
    return new Promise((resolve) => {
      const req = https.request({
        host: url().hostname, port: url().port, path: '/apis', agent: false, ca, ...forged, maxVersion,
      }, (res) => { res.resume(); res.on('end', () => resolve(String(res.statusCode))); });
      req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      req.end();
    });
  }

  function h2(maxVersion: SecureVersion): Promise<string> {
    return new Promise((resolve) => {
      const session = http2.connect(plat.url, { ca, ...forged, maxVersion });
      session.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      const req = session.request({ ':path': '/apis' });
      req.on('response', (h) => { req.resume(); req.on('end', () => { session.close(); resolve(String(h[':status'])); }); });
      req.on('error', (e) => { session.destroy(); resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`); });
      req.end();
    });
  }

  for (const maxVersion of ['TLSv1.2', 'TLSv1.3'] as const) {
    it(`HTTP/1.1 over ${maxVersion}: 401 every time`, async () => {
      for (let i = 0; i < ROUNDS; i++) assert.equal(await http1(maxVersion), '401');
    });
    it(`HTTP/2 over ${maxVersion}: 401 every time`, async () => {
      for (let i = 0; i < ROUNDS; i++) assert.equal(await h2(maxVersion), '401');
    });
  }

  it('each refusal is logged as upstream logs it', () => {
    const refused = lines.filter((l) => l.includes('Unable to authenticate the request'));
    assert.ok(refused.length >= ROUNDS * 4, lines.join('\n'));
  });
});
