// `plat all --cert-dir DIR`: the serving pair, signed by the all-in-one CA, lives in DIR (it was
// accepted and ignored: the pair stayed in <data-dir>/pki); without it, in <data-dir>/pki.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { connect } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { startInProcess, tempDir } from '../helpers/plat.js';

/** The certificate the server presents. */
function served(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => {
      resolve(new X509Certificate(s.getPeerCertificate().raw).fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

describe('plat all --cert-dir', () => {
  it('keeps the serving pair in --cert-dir, signed by the all-in-one CA, and the admin kubeconfig trusts it', async () => {
    const certDir = path.join(tempDir(), 'serving', 'certs');
    const plat = await startInProcess({ args: ['--cert-dir', certDir] });
    try {
      const crt = path.join(certDir, 'apiserver.crt');
      assert.equal(await served(plat.url), new X509Certificate(readFileSync(crt)).fingerprint256);
      assert.equal(statSync(path.join(certDir, 'apiserver.key')).mode & 0o777, 0o600);
      assert.ok(!existsSync(path.join(plat.dataDir, 'pki', 'apiserver.crt')), 'not in <data-dir>/pki');
      assert.ok(new X509Certificate(readFileSync(crt)).verify(new X509Certificate(readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'))).publicKey));
      assert.equal((await plat.admin.get('/version')).status, 200);
    } finally {
      await plat.stop();
    }
  });

  it('keeps it in <data-dir>/pki without the flag', async () => {
    const plat = await startInProcess({ args: [] });
    try {
      assert.equal(await served(plat.url), new X509Certificate(readFileSync(path.join(plat.dataDir, 'pki', 'apiserver.crt'))).fingerprint256);
    } finally {
      await plat.stop();
    }
  });
});
