// CertificateSigning over HTTPS: a /status write that changes the certificate or the conditions
// needs `sign` on the old object's signer (exact name, else `<domain>/*`); one that changes neither
// is not checked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { b64, fixtures } from '../certificates/fixtures.js';
import { signerChecks } from './signer-table-authorizer.js';
import { assertForbidden, csrObject, csrPath, CSR_PATH, startAdmissionPlat, withCondition, type AdmissionPlat } from './support.js';

const SIGNER = 'example.com/my-signer';
const users = { 'signer-exact': [], 'signer-domain': [], 'approver-only': [], unprivileged: [] };
const grants = {
  'signer-exact': [`sign:${SIGNER}`],
  'signer-domain': ['sign:example.com/*'],
  'approver-only': [`approve:${SIGNER}`, 'approve:example.com/*'],
  unprivileged: ['sign:other.example.com/*'],
};
const refusal = `user not permitted to sign requests with signerName "${SIGNER}"`;

describe('CertificateSigning', () => {
  let a: AdmissionPlat;
  const fx = fixtures();
  let n = 0;
  before(async () => { a = await startAdmissionPlat({ users, signerTable: { grants } }); });
  after(async () => { await a?.stop(); });

  async function created(): Promise<any> {
    const r = await a.plat.admin.post(CSR_PATH, csrObject(`signing-${n++}`, SIGNER, fx.ecCsrPem));
    assert.equal(r.status, 201, r.text);
    return r.json;
  }
  const withCertificate = (obj: any): any => ({ ...obj, status: { ...obj.status, certificate: b64(fx.certPem) } });
  const putStatus = (user: string, obj: any) => a.as(user).put(csrPath(obj.metadata.name, 'status'), obj);

  for (const user of ['signer-exact', 'signer-domain']) {
    it(`lets ${user} set the certificate`, async () => {
      const csr = await created();
      const r = await putStatus(user, withCertificate(csr));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status.certificate, b64(fx.certPem));
    });
  }

  it('asks for sign on signers, exact name first, then <domain>/*', async () => {
    const csr = await created();
    signerChecks.length = 0;
    assert.equal((await putStatus('signer-domain', withCertificate(csr))).status, 200);
    assert.deepEqual(signerChecks.map((c) => [c.verb, c.apiGroup, c.apiVersion, c.resource, c.name]), [
      ['sign', 'certificates.platform', '*', 'signers', SIGNER],
      ['sign', 'certificates.platform', '*', 'signers', 'example.com/*'],
    ]);
  });

  it('refuses setting the certificate without sign, with upstream\'s message', async () => {
    const csr = await created();
    assertForbidden(await putStatus('unprivileged', withCertificate(csr)), csr.metadata.name, refusal);
    assertForbidden(await putStatus('approver-only', withCertificate(csr)), csr.metadata.name, refusal);
    assert.equal((await a.plat.admin.get(csrPath(csr.metadata.name))).json.status.certificate, undefined);
  });

  it('needs sign to add a Failed condition', async () => {
    const csr = await created();
    assertForbidden(await putStatus('unprivileged', withCondition(csr, 'Failed')), csr.metadata.name, refusal);
    const r = await putStatus('signer-exact', withCondition(csr, 'Failed'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status.conditions[0].type, 'Failed');
  });

  it('needs sign to change an existing condition', async () => {
    const csr = (await putStatus('signer-exact', withCondition(await created(), 'Failed'))).json;
    const edited = structuredClone(csr);
    edited.status.conditions[0].message = 'edited';
    assertForbidden(await putStatus('unprivileged', edited), csr.metadata.name, refusal);
  });

  it('does not check a status write that changes nothing', async () => {
    const csr = (await putStatus('signer-exact', withCondition(withCertificate(await created()), 'Failed'))).json;
    const r = await putStatus('unprivileged', csr);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.resourceVersion, csr.metadata.resourceVersion);
  });

  it('compares conditions semantically: the same instant written differently is no change', async () => {
    const csr = (await putStatus('signer-exact', withCondition(await created(), 'Failed'))).json;
    const c = csr.status.conditions[0];
    assert.match(c.lastUpdateTime, /Z$/);
    c.lastUpdateTime = c.lastUpdateTime.replace(/Z$/, '+00:00');
    c.message = c.message ?? '';
    const r = await putStatus('unprivileged', csr);
    assert.equal(r.status, 200, r.text);
  });

  it('does not check a status write that changes only metadata', async () => {
    const csr = await created();
    csr.metadata.labels = { seen: 'yes' };
    const r = await putStatus('unprivileged', csr);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.labels.seen, 'yes');
  });

  it('reports validation (422) before admission (403)', async () => {
    const csr = await created();
    const r = await putStatus('unprivileged', { ...csr, status: { certificate: b64('not a certificate') } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
  });

  it('applies to PATCH of /status', async () => {
    const csr = await created();
    const patch = { status: { certificate: b64(fx.certPem) } };
    assertForbidden(await a.as('unprivileged').patch(csrPath(csr.metadata.name, 'status'), patch, 'application/merge-patch+json'), csr.metadata.name, refusal);
  });

  it('does not apply to /approval, which CertificateApproval guards', async () => {
    const csr = await created();
    const r = await a.as('approver-only').put(csrPath(csr.metadata.name, 'approval'), withCondition(csr, 'Approved'));
    assert.equal(r.status, 200, r.text);
  });
});
