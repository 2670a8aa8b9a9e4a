// Per-signer CA pairs: only the signers given a pair sign (the others are skipped and their CSRs
// left alone), a CA that expires before the requested lifetime caps the certificate at its own
// notAfter, and an expired CA makes signing fail and retry without ever failing the CSR.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { APISERVER_CLIENT_SIGNER, NODEAGENT_CLIENT_SIGNER, NODEAGENT_SERVING_SIGNER, goTime } from '../../plugins/csrsigning/index.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { opensslVerify } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { getCsr, makeCsr, startSigning, submitApproved, until, waitForCertificate, writeCaFiles, type RunningSigning } from './support.js';

const DAY = 86_400_000;

describe('csrsigning with per-signer CA pairs', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  let shortCa: TestCredential;
  let expiredCa: TestCredential;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    const dir = tempDir();
    shortCa = makeCa({ commonName: 'short-ca', days: 2 / 24 }); // valid for two more hours
    expiredCa = makeCa({ commonName: 'expired-ca', now: new Date(Date.now() - 10 * DAY), days: 1 });
    const client = writeCaFiles(dir, shortCa, 'client');
    const node = writeCaFiles(dir, expiredCa, 'node');
    signing = await startSigning(plat, [
      '--cluster-signing-plat-apiserver-client-cert-file', client.certFile, '--cluster-signing-plat-apiserver-client-key-file', client.keyFile,
      '--cluster-signing-nodeagent-client-cert-file', node.certFile, '--cluster-signing-nodeagent-client-key-file', node.keyFile,
    ]);
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('signs only for the signers given a pair and logs the others as skipped', () => {
    const hooks = signing.host.hooks.sign;
    assert.equal(hooks.get(APISERVER_CLIENT_SIGNER)?.isUsed(), true);
    assert.equal(hooks.get(NODEAGENT_CLIENT_SIGNER)?.isUsed(), true);
    assert.ok(!hooks.get(NODEAGENT_SERVING_SIGNER)?.isUsed());
    assert.ok(!hooks.get('platform/legacy-unknown')?.isUsed());
    const skipped = signing.logs.lines.filter((l) => l.includes('Skipping CSR signer controller because specific files were specified for other signers and not this one'));
    assert.equal(skipped.length, 2, skipped.join('\n'));
    assert.ok(skipped.some((l) => l.includes('controller="platform/nodeagent-serving"')));
    assert.ok(skipped.some((l) => l.includes('controller="platform/legacy-unknown"')));
  });

  it('caps the certificate at the CA\'s notAfter when the CA expires first', async () => {
    await submitApproved(plat.admin, 'capped', makeCsr({ cn: 'capped' }), APISERVER_CLIENT_SIGNER, ['client auth'], 24 * 3600);
    const { pem, x509 } = await waitForCertificate(plat.admin, 'capped');
    const caCert = new X509Certificate(shortCa.certificatePem);
    assert.equal(x509.validTo, caCert.validTo);
    assert.equal(opensslVerify(shortCa.certificatePem, pem).status, 0);
  });

  it('leaves a CSR of a signer without a pair alone', async () => {
    const serving = makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1'] });
    await submitApproved(plat.admin, 'no-pair-serving', serving, NODEAGENT_SERVING_SIGNER, ['digital signature', 'server auth']);
    await submitApproved(plat.admin, 'no-pair-sentinel', makeCsr({ cn: 'sentinel' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    await waitForCertificate(plat.admin, 'no-pair-sentinel');
    const obj = await getCsr(plat.admin, 'no-pair-serving');
    assert.equal(obj.status.certificate, undefined);
    assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('retries with backoff under an expired CA and never marks the CSR Failed', async () => {
    const csr = makeCsr({ cn: 'system:node:n2', orgs: ['system:nodes'] });
    await submitApproved(plat.admin, 'expired-ca', csr, NODEAGENT_CLIENT_SIGNER, ['digital signature', 'client auth']);
    const notAfter = goTime(new Date(new X509Certificate(expiredCa.certificatePem).validTo));
    const error = `error auto signing csr: the signer has expired: NotAfter=${notAfter}`;
    await until(() => signing.logs.lines.filter((l) => l.includes(`Sync expired-ca failed with : ${error}"`)).length >= 3, 'three failed attempts');
    const obj = await getCsr(plat.admin, 'expired-ca');
    assert.equal(obj.status.certificate, undefined);
    assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved']);
  });
});
