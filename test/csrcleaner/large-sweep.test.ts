// A sweep over many issued CSRs against a real plat: it lets the event loop turn while it checks
// them (the controller manager's leader election and, in plat all, the API server share that loop;
// 12,000 issued CSRs held it for six seconds), and it reads each certificate once per cached object,
// not at every sweep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import type { Runnable } from '../../core/lifecycle.js';
import { createCertificate, generateKeyPair } from '../../core/crypto/index.js';
import { csrCleanerController, firstCertificateNotAfter } from '../../plugins/csrcleaner/index.js';
import { SWEEP_CHUNK } from '../../plugins/csrcleaner/cleaner.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { runController } from '../csrapproving/harness.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const ISSUED = SWEEP_CHUNK * 4;
const HOUR = 3600_000;

describe('csrcleaner over many issued CSRs', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const key = generateKeyPair('ecdsa-p256');
  const notAfter = new Date(Date.now() + 24 * HOUR);
  const certificate = Buffer.from(createCertificate({
    template: { subject: { commonName: 'issued' }, notBefore: new Date(Date.now() - HOUR), notAfter },
    publicKey: key.keyObject, signer: key.keyObject,
  }).certificatePem).toString('base64');

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controller
    for (let i = 0; i < ISSUED; i++) {
      const name = `issued-${i}`;
      const created = await plat.admin.post(CSRS, baseCsr(fx, name));
      assert.equal(created.status, 201, created.text);
      const csr = created.json;
      csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'by the test' }] };
      const approved = await plat.admin.put(`${CSRS}/${name}/approval`, csr);
      assert.equal(approved.status, 200, approved.text);
      const issued = approved.json;
      issued.status.certificate = certificate;
      const written = await plat.admin.put(`${CSRS}/${name}/status`, issued);
      assert.equal(written.status, 200, written.text);
    }
  });
  after(async () => { await plat?.stop(); });

  it('lets the event loop turn during a sweep, deletes none of the fresh ones, and reads each certificate once', async () => {
    const h = runController<Runnable & { sweep(): Promise<void> }>(plat, csrCleanerController(), 'certificatesigningrequest-cleaner-controller');
    try {
      const informer = h.informers.for<Csr>(CSR_RESOURCE);
      await eventually(() => informer.list().filter((c) => c.status?.certificate).length === ISSUED, 'the cache to hold every issued CSR');
      let turns = 0;
      let sweeping = true;
      const turn = (): void => { if (sweeping) { turns++; setImmediate(turn); } };
      setImmediate(turn);
      await h.runnable.sweep();
      sweeping = false;
      assert.ok(turns >= 3, `the event loop turned ${turns} times during a sweep of ${ISSUED} issued CSRs`);
      assert.equal(h.lines.filter((l) => l.includes('Cleaning CSR')).length, 0, h.lines.join('\n'));

      // Each object's certificate is read once: a certificate changed in place (the informer never
      // does that; an update replaces the object) is not read again, a new object is.
      const cached = informer.list().find((c) => c.metadata.name === 'issued-0');
      assert.ok(cached);
      const seconds = Math.floor(notAfter.getTime() / 1000) * 1000;
      assert.equal(firstCertificateNotAfter(cached), seconds);
      const garbage = Buffer.from('not a certificate').toString('base64');
      const object = structuredClone(cached);
      assert.equal(firstCertificateNotAfter(object), seconds);
      object.status = { ...object.status, certificate: garbage };
      assert.equal(firstCertificateNotAfter(object), seconds, 'read once per object');
      assert.equal(firstCertificateNotAfter(structuredClone(object)), null, 'another object is read again');
    } finally {
      await h.stop();
    }
  });
});
