// The third-party plugin of examples/deny-signer, loaded the way a user loads it: plat started in
// that directory finds plat.config.mjs through cosmiconfig, imports the plugin with its options,
// and the plugin's admitValidate tap refuses CSRs for the denied signer.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { repoRoot, startProcess, type RunningPlat } from '../helpers/plat.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('examples/deny-signer loaded from its cosmiconfig file', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startProcess({ cwd: path.join(repoRoot, 'examples/deny-signer') }); });
  after(async () => { await plat?.stop(); });

  it('refuses a CSR for the denied signer with 403 Forbidden', async () => {
    const obj = baseCsr(fx, 'denied');
    obj.spec.signerName = 'example.com/forbidden';
    const r = await plat.admin.post(P, obj);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.reason, 'Forbidden');
    assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform "denied" is forbidden: DenySignerAdmission: signer "example.com/forbidden" is not accepted on this cluster');
    assert.equal((await plat.admin.get(`${P}/denied`)).status, 404);
  });

  it('lets other signers through', async () => {
    const r = await plat.admin.post(P, baseCsr(fx, 'allowed'));
    assert.equal(r.status, 201, r.text);
  });

  it('runs after validation: an invalid CSR for the denied signer is a 422, not a 403', async () => {
    const obj = baseCsr(fx, 'invalid-and-denied');
    obj.spec.signerName = 'example.com/forbidden';
    obj.spec.usages = [];
    const r = await plat.admin.post(P, obj);
    assert.equal(r.status, 422, r.text);
  });
});
