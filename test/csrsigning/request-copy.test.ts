// A signer plugin's req.csr is its own copy (README, "What the taps receive"): what the plugin
// changes in it is not written with the certificate or the Failed condition. It used to be the very
// object the controller then wrote to /status, so a plugin's label was stored with the certificate
// and a condition it touched made every write fail validation, the CSR never issued.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../core/crypto/index.js';
import type { Plugin } from '../../core/plugin.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { failedCondition, getCsr, makeCsr, startSigning, submitApproved, waitForCertificate, waitForCsr, type RunningSigning } from './support.js';

const PLUGIN_NAME = 'ScribblingSigner';

/** Changes req.csr (metadata, conditions, spec) before it answers. */
function scribblingSigner(ca: TestCredential): Plugin {
  const scribble = (csr: any) => {
    csr.metadata.labels = { scribbled: 'by-the-signer' };
    csr.metadata.annotations = { 'example.com/note': 'mine' };
    csr.status.conditions.length = 0;
    csr.spec.usages.reverse();
  };
  return {
    name: PLUGIN_NAME,
    apply(host) {
      host.hooks.sign.for('example.com/scribble').tapPromise(PLUGIN_NAME, async (req) => {
        scribble(req.csr);
        return {
          certificatePem: issueCertificate(req.requestPem, { certificatePem: ca.certificatePem, privateKey: ca.privateKeyPem },
            { usages: req.usages, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000) }).certificatePem,
        };
      });
      host.hooks.sign.for('example.com/scribble-refuse').tapPromise(PLUGIN_NAME, async (req) => {
        scribble(req.csr);
        return { failed: { reason: 'NotHere', message: 'refused after scribbling' } };
      });
    },
  };
}

describe('a signer plugin that changes req.csr', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    signing = await startSigning(plat, [], { plugins: [scribblingSigner(makeCa({ commonName: 'scribble-ca' }))] });
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('gets its certificate written, and nothing else of what it changed', async () => {
    await submitApproved(plat.admin, 'scribbled', makeCsr({ cn: 'scribbled' }), 'example.com/scribble', ['digital signature', 'client auth']);
    const { csr } = await waitForCertificate(plat.admin, 'scribbled');
    assert.equal(csr.metadata.labels, undefined);
    assert.equal(csr.metadata.annotations, undefined);
    assert.deepEqual(csr.status.conditions.map((c: any) => c.type), ['Approved']);
    assert.deepEqual(csr.spec.usages, ['digital signature', 'client auth']);
    assert.ok(!signing.logs.has('Sync scribbled failed'), signing.logs.lines.filter((l) => l.includes('scribbled')).join('\n'));
  });

  it('gets its Failed condition written beside the approval, and nothing else of what it changed', async () => {
    await submitApproved(plat.admin, 'scribbled-refused', makeCsr({ cn: 'scribbled-refused' }), 'example.com/scribble-refuse', ['client auth']);
    const csr = await waitForCsr(plat.admin, 'scribbled-refused', (c) => Boolean(failedCondition(c)), 'a Failed condition');
    assert.deepEqual(csr.status.conditions.map((c: any) => [c.type, c.reason]), [['Approved', 'TestApproved'], ['Failed', 'NotHere']]);
    assert.equal(csr.metadata.labels, undefined);
    assert.equal((await getCsr(plat.admin, 'scribbled-refused')).metadata.annotations, undefined);
  });
});
