// RBAC with the rest of the API server: the bootstrap approver roles drive CertificateApproval
// (approve on signers), system:basic-user lets anyone ask SelfSubjectAccessReviews answered by
// RBAC, and impersonation is granted by RBAC rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, CSRS, clusterRole, clusterRoleBinding, created, rule, startRbac, user, type RbacPlat } from './support.js';

const SSAR = '/apis/authorization.platform/v1/selfsubjectaccessreviews';
const approved = (csr: any) => ({
  ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by a test' }] },
});

describe('RBAC with admission, access reviews and impersonation', () => {
  let plat: RbacPlat;
  const fx = fixtures();
  before(async () => {
    plat = await startRbac([{ name: 'approver' }, { name: 'nobody' }, { name: 'boss' }]);
    await created(plat.admin, CLUSTER_ROLES, clusterRole('csr-approval-writer', [
      rule(['get'], ['certificates.platform'], ['certificatesigningrequests']),
      rule(['update'], ['certificates.platform'], ['certificatesigningrequests/approval']),
    ]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('approver-writes-approval', 'csr-approval-writer', [user('approver')]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('approver-approves-clients',
      'system:certificates.platform:apiserver-client-approver', [user('approver')]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('impersonate-nobody', [rule(['impersonate'], [''], ['users'], ['nobody'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('boss-impersonates', 'impersonate-nobody', [user('boss')]));
  });
  after(async () => { await plat?.stop(); });

  it('the apiserver-client approver role approves that signer only', async () => {
    const client = await created(plat.admin, CSRS, { ...baseCsr(fx, 'client-csr'), spec: { ...baseCsr(fx).spec, signerName: 'platform/apiserver-client' } });
    const other = await created(plat.admin, CSRS, baseCsr(fx, 'other-csr'));
    const ok = await plat.as('approver').put(`${CSRS}/client-csr/approval`, approved(client));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.status.conditions[0].type, 'Approved');
    const refused = await plat.as('approver').put(`${CSRS}/other-csr/approval`, approved(other));
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.message, /user not permitted to approve requests with signerName "example.com\/my-signer"/);
  });

  it('any authenticated user may ask a SelfSubjectAccessReview, answered with RBAC\'s reason', async () => {
    const ask = (who: string, resourceAttributes: Record<string, string>) =>
      plat.as(who).post(SSAR, { apiVersion: 'authorization.platform/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });
    const yes = await ask('approver', { verb: 'update', group: 'certificates.platform', resource: 'certificatesigningrequests', subresource: 'approval' });
    assert.equal(yes.status, 201, yes.text);
    assert.deepEqual(yes.json.status, {
      allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "approver-writes-approval" of ClusterRole "csr-approval-writer" to User "approver"',
    });
    const no = await ask('nobody', { verb: 'list', resource: 'secrets', namespace: 'default' });
    assert.equal(no.status, 201, no.text);
    assert.equal(no.json.status.allowed, false);
  });

  it('impersonation is allowed by an impersonate rule on the named user', async () => {
    const asNobody = await plat.as('boss').get(CSRS, { 'Impersonate-User': 'nobody' });
    assert.equal(asNobody.status, 403, 'impersonation allowed, then nobody may not list CSRs');
    assert.match(asNobody.json.message, /User "nobody" cannot list/);
    const asApprover = await plat.as('boss').get(CSRS, { 'Impersonate-User': 'approver' });
    assert.equal(asApprover.status, 403);
    assert.match(asApprover.json.message, /User "boss" cannot impersonate resource "users"/);
  });
});
