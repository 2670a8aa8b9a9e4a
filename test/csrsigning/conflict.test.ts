// A user changes a CSR (a label, another approval) while the signing controller is signing it:
// the controller's status write, made from the version it read, loses with 409 Conflict; the
// controller signs again from the new version and writes that, so the CSR ends with exactly one
// certificate, the user's change kept, and no Failed condition.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../core/crypto/index.js';
import type { Plugin } from '../../core/plugin.js';
import { makeCa } from '../helpers/certs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { CSRS, certificateOf, getCsr, makeCsr, startSigning, submitApproved, until, waitForCertificate, type RunningSigning } from './support.js';

const PLUGIN_NAME = 'HeldSigner';
const SIGNER = 'example.com/held';

describe('csrsigning when the CSR changes while it is being signed', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  const ca = makeCa({ commonName: 'held-ca' });
  const calls: string[] = [];
  let release: () => void = () => {};
  let held = new Promise<void>((r) => { release = r; });

  const heldSigner: Plugin = {
    name: PLUGIN_NAME,
    apply(host) {
      host.hooks.sign.for(SIGNER).tapPromise(PLUGIN_NAME, async (req) => {
        calls.push(req.csr.metadata.name ?? '');
        await held;
        const now = Date.now();
        return issueCertificate(req.requestPem, { certificatePem: ca.certificatePem, privateKey: ca.privateKeyPem },
          { usages: req.usages, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000) });
      });
    },
  };

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    signing = await startSigning(plat, [], { plugins: [heldSigner] });
  });
  after(async () => { release(); await signing?.stop(); await plat?.stop(); });

  for (const change of ['label', 'approval'] as const) {
    it(`issues once when the user's ${change} lands during the signing`, async () => {
      calls.length = 0;
      held = new Promise<void>((r) => { release = r; });
      const name = `held-${change}`;
      await submitApproved(plat.admin, name, makeCsr({ cn: name }), SIGNER, ['client auth']);
      await until(() => calls.includes(name), 'the signer is asked');
      const r = change === 'label'
        ? await plat.admin.patch(`${CSRS}/${name}`, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json')
        : await (async () => {
          // A second approver restates the approval, as `kubectl certificate approve` on an approved CSR.
          const csr = await getCsr(plat.admin, name);
          csr.status.conditions = csr.status.conditions.map((c: any) => ({ ...c, message: 'approved again' }));
          return plat.admin.put(`${CSRS}/${name}/approval`, csr);
        })();
      assert.equal(r.status, 200, r.text);
      release();
      const { pem } = await waitForCertificate(plat.admin, name);
      const issued = await getCsr(plat.admin, name);
      assert.deepEqual(issued.status.conditions.map((c: any) => c.type), ['Approved']);
      if (change === 'label') assert.equal(issued.metadata.labels?.touched, 'yes');
      else assert.equal(issued.status.conditions[0].message, 'approved again');
      // Stays: nothing signs it again or replaces it.
      await submitApproved(plat.admin, `${name}-sentinel`, makeCsr({ cn: `${name}-sentinel` }), SIGNER, ['client auth']);
      await waitForCertificate(plat.admin, `${name}-sentinel`);
      assert.equal(certificateOf(await getCsr(plat.admin, name)), pem);
      // Signed twice (the first signature lost its write to the user's change), written once.
      assert.equal(calls.filter((n) => n === name).length, 2);
      assert.equal(signing.logs.lines.filter((l) => l.includes(`Sync ${name} failed with : `) && l.includes('the object has been modified')).length, 1);
    });
  }
});
