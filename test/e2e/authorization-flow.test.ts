// Issue 5's acceptance flow over HTTPS, with --authorization-mode=Node,RBAC and only the default
// bootstrap policy: who may create, approve and sign which CSRs, enforced by RBAC, the Node
// authorizer and the certificate admission plugins together.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCsr } from '../../core/crypto/index.js';
import { createBootstrapToken } from '../helpers/bootstrap-token.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const RBAC = '/apis/rbac.authorization.platform/v1';
const TOKENS = { alice: 'alice-token-0123456789', bob: 'bob-token-0123456789', carol: 'carol-token-0123456789', dave: 'dave-token-0123456789' };

function csr(name: string, signerName: string, subject: { commonName: string; organizations?: string[] }, usages: string[]) {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  return {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
    spec: { request: Buffer.from(createCsr({ subject, privateKey: key })).toString('base64'), signerName, usages },
  };
}
const approved = (obj: any) => ({ ...obj, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
const clientUsages = ['digital signature', 'client auth'];

describe('authorization flow: Node,RBAC with the default bootstrap policy', () => {
  let plat: RunningPlat;
  let bootstrapToken: string;
  before(async () => {
    const dir = tempDir('plat-authz-flow-');
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, Object.entries(TOKENS).map(([u, t]) => `${t},${u},uid-${u}`).join('\n') + '\n');
    // Without the embedded controllers: csrsigning would issue an approved CSR while a test asserts
    // that a refused /status write left it without a certificate (seen in CI as a flaky failure).
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', `--token-auth-file=${tokens}`, '--enable-bootstrap-token-auth', '--controllers='] });
    bootstrapToken = await createBootstrapToken(plat.admin);

    // alice: the default approver role of platform/apiserver-client, plus reading and updating /approval.
    const grants: [string, unknown][] = [
      [`${RBAC}/clusterroles`, { metadata: { name: 'csr-approval-writer' }, rules: [
        { apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests'], verbs: ['get', 'list'] },
        { apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
      ] }],
      [`${RBAC}/clusterroles`, { metadata: { name: 'csr-status-writer' }, rules: [
        { apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests/status'], verbs: ['update'] },
      ] }],
      [`${RBAC}/clusterroles`, { metadata: { name: 'example-approver' }, rules: [
        { apiGroups: ['certificates.platform'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] },
      ] }],
      [`${RBAC}/clusterroles`, { metadata: { name: 'role-creator' }, rules: [
        { apiGroups: ['rbac.authorization.platform'], resources: ['clusterroles'], verbs: ['create'] },
      ] }],
      [`${RBAC}/clusterrolebindings`, bind('alice-approves-apiserver-client', 'system:certificates.platform:apiserver-client-approver', 'alice')],
      [`${RBAC}/clusterrolebindings`, bind('alice-writes-approval', 'csr-approval-writer', 'alice')],
      [`${RBAC}/clusterrolebindings`, bind('bob-writes-status', 'csr-status-writer', 'bob')],
      [`${RBAC}/clusterrolebindings`, bind('carol-creates-roles', 'role-creator', 'carol')],
      [`${RBAC}/clusterrolebindings`, bind('dave-approves-example', 'example-approver', 'dave')],
      [`${RBAC}/clusterrolebindings`, bind('dave-writes-approval', 'csr-approval-writer', 'dave')],
    ];
    for (const [p, body] of grants) {
      const kind = p.endsWith('clusterroles') ? 'ClusterRole' : 'ClusterRoleBinding';
      const res = await plat.admin.post(p, { apiVersion: 'rbac.authorization.platform/v1', kind, ...(body as object) });
      assert.equal(res.status, 201, res.text);
    }
  });
  after(async () => { await plat?.stop(); });

  function bind(name: string, role: string, user: string) {
    return {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.platform', kind: 'User', name: user }],
    };
  }
  const as = (user: keyof typeof TOKENS) => plat.admin.with({ token: TOKENS[user] });

  it('a bootstrap-token user creates a node-client CSR but cannot approve it', async () => {
    const boot = plat.admin.with({ token: bootstrapToken });
    const obj = csr('node-n1', 'platform/apiserver-client-nodeagent', { commonName: 'system:node:n1', organizations: ['system:nodes'] }, clientUsages);
    const created = await boot.post(CSRS, obj);
    assert.equal(created.status, 201, created.text);
    assert.match(created.json.spec.username, /^system:bootstrap:/);
    const r = await boot.put(`${CSRS}/node-n1/approval`, approved(created.json));
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, /cannot update resource "certificatesigningrequests\/approval" in API group "certificates\.platform"/);
    assert.equal((await boot.get('/api/v1/namespaces/plat-system/secrets')).status, 403, 'and reads no secrets');
  });

  it('an approver bound to the apiserver-client approver role approves that signer only', async () => {
    const mine = await plat.admin.post(CSRS, csr('client-a', 'platform/apiserver-client', { commonName: 'a' }, clientUsages));
    assert.equal(mine.status, 201, mine.text);
    let r = await as('alice').put(`${CSRS}/client-a/approval`, approved(mine.json));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status.conditions[0].type, 'Approved');

    const serving = await plat.admin.post(CSRS, csr('serving-a', 'platform/nodeagent-serving', { commonName: 'system:node:n1', organizations: ['system:nodes'] }, ['digital signature', 'server auth']));
    assert.equal(serving.status, 201, serving.text);
    r = await as('alice').put(`${CSRS}/serving-a/approval`, approved(serving.json));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform "serving-a" is forbidden: user not permitted to approve requests with signerName "platform/nodeagent-serving"');
  });

  it('a user who may update /status but may not sign cannot set the certificate', async () => {
    const obj = await plat.admin.post(CSRS, csr('client-b', 'platform/apiserver-client', { commonName: 'b' }, clientUsages));
    const ok = await plat.admin.put(`${CSRS}/client-b/approval`, approved(obj.json));
    assert.equal(ok.status, 200, ok.text);
    // Any well-formed certificate passes validation, so the refusal is admission's.
    const pem = readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'));
    const r = await as('bob').put(`${CSRS}/client-b/status`, { ...ok.json, status: { ...ok.json.status, certificate: pem.toString('base64') } });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform "client-b" is forbidden: user not permitted to sign requests with signerName "platform/apiserver-client"');
    const failed = await as('bob').put(`${CSRS}/client-b/status`, { ...ok.json, status: { conditions: [...ok.json.status.conditions, { type: 'Failed', status: 'True', reason: 'X', message: 'y' }] } });
    assert.equal(failed.status, 403, failed.text);
    assert.equal((await plat.admin.get(`${CSRS}/client-b`)).json.status.certificate, undefined);
  });

  it('a platform/apiserver-client CSR asking for system:masters is refused with a clear message', async () => {
    const r = await plat.admin.post(CSRS, csr('masters', 'platform/apiserver-client', { commonName: 'eve', organizations: ['system:masters'] }, clientUsages));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform "masters" is forbidden: use of platform/apiserver-client signer with system:masters group is not allowed');
    assert.equal((await plat.admin.get(`${CSRS}/masters`)).status, 404);
  });

  it('an RBAC escalation attempt is refused', async () => {
    const r = await as('carol').post(`${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'approve-everything' },
      rules: [{ apiGroups: ['certificates.platform'], resources: ['signers'], verbs: ['approve'] }],
    });
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, /is attempting to grant RBAC permissions not currently held/);
    assert.equal((await plat.admin.get(`${RBAC}/clusterroles/approve-everything`)).status, 404);
  });

  it('a wildcard example.com/* approve grant works for any example.com signer', async () => {
    const obj = await plat.admin.post(CSRS, csr('example-1', 'example.com/short-lived', { commonName: 'x' }, clientUsages));
    assert.equal(obj.status, 201, obj.text);
    const r = await as('dave').put(`${CSRS}/example-1/approval`, approved(obj.json));
    assert.equal(r.status, 200, r.text);
    const other = await plat.admin.post(CSRS, csr('other-1', 'other.example/x', { commonName: 'x' }, clientUsages));
    const refused = await as('dave').put(`${CSRS}/other-1/approval`, approved(other.json));
    assert.equal(refused.status, 403, refused.text);
  });
});
