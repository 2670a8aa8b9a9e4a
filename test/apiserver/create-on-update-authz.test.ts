// Creating through an update is a create: a PUT to a missing Lease (leaseStrategy allows create on
// update) and a server-side apply to a missing CSR need `create` as well as the request's own verb,
// as upstream's update and patch handlers check with withAuthorization. Under RBAC, over HTTPS.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const RBAC = '/apis/rbac.authorization.platform/v1';
const TOKENS = { writer: 'writer-token-0123456789', creator: 'creator-token-0123456789' };
const APPLY = 'application/apply-patch+yaml';

describe('create on update needs create', () => {
  let plat: RunningPlat;
  before(async () => {
    const tokens = path.join(tempDir(), 'tokens.csv');
    writeFileSync(tokens, Object.entries(TOKENS).map(([u, t]) => `${t},${u},uid-${u}`).join('\n') + '\n');
    plat = await startInProcess({ args: ['--authorization-mode=RBAC', `--token-auth-file=${tokens}`, '--controllers='] });
    const rules = (verbs: string[]) => [
      { apiGroups: ['coordination.platform'], resources: ['leases'], verbs },
      { apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests'], verbs },
    ];
    for (const [user, verbs] of [['writer', ['get', 'update', 'patch']], ['creator', ['get', 'update', 'patch', 'create']]] as const) {
      const role = await plat.admin.post(`${RBAC}/clusterroles`, { metadata: { name: user }, rules: rules([...verbs]) });
      assert.equal(role.status, 201, role.text);
      const binding = await plat.admin.post(`${RBAC}/clusterrolebindings`, {
        metadata: { name: user }, roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: user },
        subjects: [{ apiGroup: 'rbac.authorization.platform', kind: 'User', name: user }],
      });
      assert.equal(binding.status, 201, binding.text);
    }
  });
  after(async () => { await plat?.stop(); });
  const as = (user: keyof typeof TOKENS) => plat.admin.with({ token: TOKENS[user] });

  it('a PUT to a missing Lease: Forbidden without create, created with it', async () => {
    const denied = await as('writer').put(`${LEASES}/put-lease`, { metadata: { name: 'put-lease' }, spec: { holderIdentity: 'w' } });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json.message, 'leases.coordination.platform "put-lease" is forbidden: ');
    assert.deepEqual(denied.json.details, { name: 'put-lease', group: 'coordination.platform', kind: 'leases' });
    assert.equal((await plat.admin.get(`${LEASES}/put-lease`)).status, 404, 'nothing created');
    const created = await as('creator').put(`${LEASES}/put-lease`, { metadata: { name: 'put-lease' }, spec: { holderIdentity: 'c' } });
    assert.equal(created.status, 201, created.text);
    // An existing Lease: update alone is enough.
    const updated = await as('writer').put(`${LEASES}/put-lease`, { ...created.json, spec: { holderIdentity: 'w' } });
    assert.equal(updated.status, 200, updated.text);
  });

  it('a server-side apply to a missing CSR: Forbidden without create, created with it', async () => {
    const body = JSON.stringify(baseCsr(fixtures(), 'applied'));
    const denied = await as('writer').patch(`${CSRS}/applied?fieldManager=test`, body, APPLY);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json.message, 'certificatesigningrequests.certificates.platform "applied" is forbidden: ');
    assert.equal((await plat.admin.get(`${CSRS}/applied`)).status, 404, 'nothing created');
    const created = await as('creator').patch(`${CSRS}/applied?fieldManager=test`, body, APPLY);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.spec.username, 'creator');
  });
});
