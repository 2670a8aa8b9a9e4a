// CertificateApproval over HTTPS: every write to /approval needs `approve` on the old object's
// signer (exact name, else `<domain>/*`), asked of the real authorizer chain as the caller. The
// SignerTable authorizer (loaded from a config file) gives each test user different answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixtures } from '../certificates/fixtures.js';
import { signerChecks } from './signer-table-authorizer.js';
import { assertForbidden, csrObject, csrPath, CSR_PATH, startAdmissionPlat, withCondition, type AdmissionPlat } from './support.js';

const SIGNER = 'example.com/my-signer';
const users = {
  'approver-exact': [], 'approver-domain': [], 'approver-platform': [], unprivileged: [], erratic: [], 'signer-only': [],
};
const grants = {
  'approver-exact': [`approve:${SIGNER}`],
  'approver-domain': ['approve:example.com/*'],
  'approver-platform': ['approve:platform/*'],
  unprivileged: ['approve:other.example.com/x', 'approve:other.example.com/*'],
  erratic: [`approve:${SIGNER}`, 'approve:example.com/*'],
  'signer-only': [`sign:${SIGNER}`, 'sign:example.com/*'],
};

describe('CertificateApproval', () => {
  let a: AdmissionPlat;
  const fx = fixtures();
  let n = 0;
  before(async () => {
    a = await startAdmissionPlat({ users, signerTable: { grants, failing: { erratic: [`approve:${SIGNER}`] } } });
  });
  after(async () => { await a?.stop(); });

  /** Creates a CSR (as the admin) and returns it as stored. */
  async function created(signerName = SIGNER): Promise<any> {
    const r = await a.plat.admin.post(CSR_PATH, csrObject(`approval-${n++}`, signerName, fx.ecCsrPem));
    assert.equal(r.status, 201, r.text);
    return r.json;
  }
  const approve = (user: string, obj: any, type = 'Approved') =>
    a.as(user).put(csrPath(obj.metadata.name, 'approval'), withCondition(obj, type));

  const allowed: [string, string, string][] = [
    ['the exact signerName', 'approver-exact', SIGNER],
    ['the <domain>/* wildcard', 'approver-domain', SIGNER],
    ['platform/* for a well-known signer (single-label domain accepted)', 'approver-platform', 'platform/apiserver-client'],
    ['the wildcard after the exact check errored', 'erratic', SIGNER],
  ];
  for (const [what, user, signerName] of allowed) {
    it(`lets a user approve with approve on ${what}`, async () => {
      const csr = await created(signerName);
      const r = await approve(user, csr);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status.conditions[0].type, 'Approved');
    });
  }

  it('asks for approve on signers (exact name, then <domain>/*) with upstream\'s attributes', async () => {
    const csr = await created();
    signerChecks.length = 0;
    assert.equal((await approve('approver-domain', csr)).status, 200);
    const common = { verb: 'approve', isResourceRequest: true, path: '', apiGroup: 'certificates.platform', apiVersion: '*', resource: 'signers', subresource: '', namespace: '' };
    assert.deepEqual(signerChecks.map(({ user, ...rest }) => rest), [
      { ...common, name: SIGNER },
      { ...common, name: 'example.com/*' },
    ]);
    assert.equal(signerChecks[0]!.user.name, 'approver-domain');
  });

  it('refuses a user without approve on the signer with 403 and upstream\'s message', async () => {
    const csr = await created();
    const r = await approve('unprivileged', csr);
    assertForbidden(r, csr.metadata.name, `user not permitted to approve requests with signerName "${SIGNER}"`);
    const stored = (await a.plat.admin.get(csrPath(csr.metadata.name))).json;
    assert.equal(stored.status.conditions, undefined, 'nothing was written');
  });

  it('needs approve to deny as well', async () => {
    const csr = await created();
    assertForbidden(await approve('unprivileged', csr, 'Denied'), csr.metadata.name, `user not permitted to approve requests with signerName "${SIGNER}"`);
    assert.equal((await approve('approver-exact', csr, 'Denied')).status, 200);
  });

  it('does not take sign for approve', async () => {
    const csr = await created();
    assertForbidden(await approve('signer-only', csr), csr.metadata.name, `user not permitted to approve requests with signerName "${SIGNER}"`);
  });

  it('checks even an approval write that changes nothing', async () => {
    const csr = await created();
    const r = await a.as('unprivileged').put(csrPath(csr.metadata.name, 'approval'), csr);
    assertForbidden(r, csr.metadata.name, `user not permitted to approve requests with signerName "${SIGNER}"`);
  });

  it('checks the stored signerName, not one put into the approval body', async () => {
    const csr = await created();
    const body = withCondition(csr, 'Approved');
    body.spec.signerName = 'other.example.com/x';
    assertForbidden(await a.as('unprivileged').put(csrPath(csr.metadata.name, 'approval'), body), csr.metadata.name,
      `user not permitted to approve requests with signerName "${SIGNER}"`);
  });

  it('applies to PATCH of /approval too', async () => {
    const csr = await created();
    const patch = [{ op: 'add', path: '/status/conditions', value: [{ type: 'Approved', status: 'True', reason: 'Patch' }] }];
    const r = await a.as('unprivileged').patch(csrPath(csr.metadata.name, 'approval'), patch, 'application/json-patch+json');
    assertForbidden(r, csr.metadata.name, `user not permitted to approve requests with signerName "${SIGNER}"`);
    const ok = await a.as('approver-exact').patch(csrPath(csr.metadata.name, 'approval'), patch, 'application/json-patch+json');
    assert.equal(ok.status, 200, ok.text);
  });

  it('reports validation (422) before admission (403)', async () => {
    const csr = await created();
    const both = withCondition(withCondition(csr, 'Approved'), 'Denied');
    const r = await a.as('unprivileged').put(csrPath(csr.metadata.name, 'approval'), both);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
  });

  it('does not apply to writes of the main resource', async () => {
    const csr = await created();
    const labelled = structuredClone(csr);
    labelled.metadata.labels = { team: 'a' };
    assert.equal((await a.as('unprivileged').put(csrPath(csr.metadata.name), labelled)).status, 200);
  });
});
