// CertificateSubjectRestriction over HTTPS: a CSR for platform/apiserver-client asking for
// O=system:masters is refused at create, whoever asks (the admin here); other signers and other
// organizations pass.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertForbidden, csrObject, csrPath, CSR_PATH, csrPem, QUALIFIED, startAdmissionPlat, type AdmissionPlat } from './support.js';

const CLIENT_SIGNER = 'platform/apiserver-client';
const REFUSAL = 'use of platform/apiserver-client signer with system:masters group is not allowed';

describe('CertificateSubjectRestriction', () => {
  let a: AdmissionPlat;
  let masters: string;
  let mastersAmongOthers: string;
  let plain: string;
  before(async () => {
    masters = csrPem('/O=system:masters/CN=eve');
    mastersAmongOthers = csrPem('/O=dev/O=system:masters/O=ops/CN=eve');
    plain = csrPem('/O=system:mastersx/O=dev/CN=alice');
    a = await startAdmissionPlat();
  });
  after(async () => { await a?.stop(); });

  it('refuses O=system:masters for platform/apiserver-client', async () => {
    const r = await a.plat.admin.post(CSR_PATH, csrObject('masters', CLIENT_SIGNER, masters));
    assertForbidden(r, 'masters', REFUSAL);
    assert.equal((await a.plat.admin.get(csrPath('masters'))).status, 404);
  });

  it('refuses system:masters among other organizations', async () => {
    assertForbidden(await a.plat.admin.post(CSR_PATH, csrObject('masters-2', CLIENT_SIGNER, mastersAmongOthers)), 'masters-2', REFUSAL);
  });

  it('refuses a dry run too', async () => {
    assertForbidden(await a.plat.admin.post(`${CSR_PATH}?dryRun=All`, csrObject('masters-dry', CLIENT_SIGNER, masters)), 'masters-dry', REFUSAL);
  });

  it('names the generated name: validating admission runs after name generation', async () => {
    const r = await a.plat.admin.post(CSR_PATH, csrObject('', CLIENT_SIGNER, masters, { generateName: 'csr-' }));
    assert.equal(r.status, 403, r.text);
    const m = new RegExp(`^${QUALIFIED.replace(/\./g, '\\.')} "(csr-[a-z0-9]{5})" is forbidden: ${REFUSAL}$`).exec(r.json.message);
    assert.ok(m, r.json.message);
    assert.equal(r.json.details.name, m[1]);
  });

  const allowed: [string, string, () => string][] = [
    ['system:masters for another signer', 'example.com/my-signer', () => masters],
    ['system:masters for the node-agent client signer', 'platform/apiserver-client-nodeagent', () => masters],
    ['other organizations for platform/apiserver-client', CLIENT_SIGNER, () => plain],
  ];
  allowed.forEach(([what, signer, pemText], i) => {
    it(`allows ${what}`, async () => {
      const r = await a.plat.admin.post(CSR_PATH, csrObject(`allowed-${i}`, signer, pemText()));
      assert.equal(r.status, 201, r.text);
    });
  });

  // Validation's parse of spec.request is shared with this plugin (core/crypto/wire-csr.ts): each
  // create must still be judged by its own request, whatever was parsed just before.
  it('judges each create by its own request, the same bytes in another object included', async () => {
    const steps: [string, string, () => string, number][] = [
      ['shared-other-signer', 'example.com/my-signer', () => masters, 201],
      ['shared-client-signer', CLIENT_SIGNER, () => masters, 403],
      ['shared-plain', CLIENT_SIGNER, () => plain, 201],
      ['shared-masters-again', CLIENT_SIGNER, () => mastersAmongOthers, 403],
      ['shared-plain-again', CLIENT_SIGNER, () => plain, 201],
    ];
    for (const [name, signer, pemText, status] of steps) {
      const r = await a.plat.admin.post(CSR_PATH, csrObject(name, signer, pemText()));
      assert.equal(r.status, status, `${name}: ${r.text}`);
      if (status === 403) assertForbidden(r, name, REFUSAL);
    }
  });

  it('reports validation (422) before admission (403)', async () => {
    const r = await a.plat.admin.post(CSR_PATH, csrObject('masters-invalid', CLIENT_SIGNER, masters, { usages: [] }));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
  });
});
