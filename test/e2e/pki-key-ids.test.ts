// The certificates plat makes for itself carry the key identifiers Go's CreateCertificate writes
// (an SKI on a CA only; an AKI only when the issuer differs from the subject), read by openssl, and
// everything built on them still works: openssl verify, node:tls with the CA, the x509
// authenticator for the admin and controller-manager certificates, and kubectl (Go's crypto/x509)
// with the admin kubeconfig plat writes. Also `plat ca init`'s CA.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { opensslVerify } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

/** `openssl x509 -ext subjectKeyIdentifier,authorityKeyIdentifier` as hex; undefined: absent. */
function keyIds(certPem: string): { ski: string | undefined; aki: string | undefined } {
  const text = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectKeyIdentifier,authorityKeyIdentifier'], { input: certPem, encoding: 'utf8' });
  const value = (label: string): string | undefined => {
    const m = new RegExp(`${label}: *\\n\\s*(?:keyid:)?([0-9A-F:]+)\\n`).exec(text);
    return m ? m[1]!.replace(/:/g, '').toLowerCase() : undefined;
  };
  return { ski: value('Subject Key Identifier'), aki: value('Authority Key Identifier') };
}

describe('plat all: <data-dir>/pki as Go would make it', () => {
  let plat: RunningPlat;
  const pem = (name: string): string => readFileSync(path.join(plat.dataDir, 'pki', name), 'utf8');
  before(async () => { plat = await startInProcess({ args: [] }); });
  after(async () => { await plat?.stop(); });

  it('ca.crt: an SKI and no AKI; every leaf: no SKI, AKI = the CA\'s SKI; openssl verifies each', () => {
    const ca = keyIds(pem('ca.crt'));
    assert.match(ca.ski ?? '', /^[0-9a-f]{40}$/, 'CA SKI');
    assert.equal(ca.aki, undefined, 'no AKI on the self-signed CA');
    for (const [file, purpose] of [['apiserver.crt', 'sslserver'], ['admin.crt', 'sslclient'], ['controller-manager.crt', 'sslclient']] as const) {
      assert.deepEqual(keyIds(pem(file)), { ski: undefined, aki: ca.ski }, file);
      const r = opensslVerify(pem('ca.crt'), pem(file), { purpose });
      assert.equal(r.status, 0, `${file}: ${r.stderr}${r.stdout}`);
    }
  });

  it('node:tls trusts the serving certificate through ca.crt', async () => {
    const u = new URL(plat.url);
    const authorized = await new Promise<boolean>((resolve, reject) => {
      const s = connect({ host: u.hostname, port: Number(u.port), ca: pem('ca.crt'), servername: 'localhost' }, () => {
        resolve(s.authorized);
        s.end();
      });
      s.on('error', reject);
    });
    assert.equal(authorized, true);
  });

  it('the x509 authenticator finds the chain for admin.crt and controller-manager.crt', async () => {
    const list = '/apis/certificates.platform/v1/certificatesigningrequests';
    assert.equal((await plat.admin.get(list)).status, 200, 'admin');
    const cm = plat.admin.with({ cert: pem('controller-manager.crt'), key: pem('controller-manager.key') });
    assert.equal((await cm.get(list)).status, 200, 'controller manager');
    assert.equal((await plat.admin.with({ anonymous: true }).get(list)).status, 401, 'no certificate');
  });

  it('kubectl (Go\'s crypto/x509) works with the admin kubeconfig plat wrote', async () => {
    const r = await new Kubectl(plat.kubeconfig).run(['get', 'csr']);
    assert.equal(r.code, 0, r.stderr);
  });
});

describe('plat ca init', () => {
  it('writes a CA with an SKI and no AKI', () => {
    const dir = path.join(tempDir(), 'ca');
    const init = runPlat(['ca', 'init', '--dir', dir]);
    assert.equal(init.code, 0, init.stderr);
    const ca = keyIds(readFileSync(path.join(dir, 'ca.crt'), 'utf8'));
    assert.match(ca.ski ?? '', /^[0-9a-f]{40}$/);
    assert.equal(ca.aki, undefined);
  });
});
