// Subjects that are not static users: service accounts with real tokens from the TokenRequest
// API, and bootstrap-token users under the default policy (CSR yes, secrets no).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, CSRS, ROLE_BINDINGS, SECRETS,
  clusterRole, clusterRoleBinding, created, namespace, roleBinding, rule, startRbac, type RbacPlat,
} from './support.js';

const SAS = (ns: string) => `/api/v1/namespaces/${ns}/serviceaccounts`;

async function saToken(plat: RbacPlat, ns: string, name: string): Promise<string> {
  await created(plat.admin, SAS(ns), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  const r = await plat.admin.post(`${SAS(ns)}/${name}/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
  assert.equal(r.status, 201, r.text);
  return r.json.status.token as string;
}

describe('RBAC service-account subjects', () => {
  let plat: RbacPlat;
  let robot: string;
  let builder: string;
  before(async () => {
    plat = await startRbac([{ name: 'someone' }]);
    await namespace(plat, 'ci');
    robot = await saToken(plat, 'default', 'robot');
    builder = await saToken(plat, 'ci', 'builder');
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-lister', [rule(['list'], [''], ['secrets'])]));
  });
  after(async () => { await plat?.stop(); });

  it('a RoleBinding subject without namespace means the binding\'s namespace', async () => {
    await created(plat.admin, ROLE_BINDINGS('default'), roleBinding('robot-lists', 'ClusterRole', 'secret-lister', [{ kind: 'ServiceAccount', name: 'robot' }]));
    assert.equal((await plat.admin.with({ token: robot }).get(SECRETS('default'))).status, 200);
    assert.equal((await plat.admin.with({ token: robot }).get(SECRETS('ci'))).status, 403);
    assert.equal((await plat.admin.with({ token: builder }).get(SECRETS('default'))).status, 403, 'same name, other namespace');
  });

  it('a ClusterRoleBinding names the account\'s namespace', async () => {
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('builder-lists', 'secret-lister', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }]));
    for (const ns of ['ci', 'default']) assert.equal((await plat.admin.with({ token: builder }).get(SECRETS(ns))).status, 200, ns);
  });

  it('the default policy lets service accounts, and only them, read the issuer discovery documents', async () => {
    for (const p of ['/.well-known/openid-configuration', '/openid/v1/jwks']) {
      assert.equal((await plat.admin.with({ token: robot }).get(p)).status, 200, p);
      const r = await plat.as('someone').get(p);
      assert.equal(r.status, 403, p);
      assert.equal(r.json.message, `forbidden: User "someone" cannot get path "${p}"`);
    }
  });

  it('a 403 is responsewriters.Forbidden: the request echoed without HTML, and nosniff', async () => {
    const r = await plat.as('someone').get('/a&b');
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'forbidden: User "someone" cannot get path "/a&amp;b"');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
  });
});

describe('RBAC with bootstrap tokens under the default policy', () => {
  let plat: RbacPlat;
  const fx = fixtures();
  const token = 'abcdef.0123456789abcdef';
  before(async () => {
    plat = await startRbac([], { args: ['--enable-bootstrap-token-auth'] });
    await created(plat.admin, SECRETS('plat-system'), {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-token-abcdef' }, type: 'bootstrap.platform/token',
      stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
    });
  });
  after(async () => { await plat?.stop(); });

  it('a bootstrap-token user creates, gets and watches its CSR (plat:nodeagent-bootstrap)', async () => {
    const client = plat.admin.with({ token });
    const r = await client.post(CSRS, baseCsr(fx, 'node-boot'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'system:bootstrap:abcdef');
    assert.equal((await client.get(`${CSRS}/node-boot`)).status, 200);
    assert.equal((await client.get(`${CSRS}?watch=1&timeoutSeconds=1`)).status, 200);
  });

  it('but may not list secrets, nor delete or approve CSRs', async () => {
    const client = plat.admin.with({ token });
    const secrets = await client.get(SECRETS('plat-system'));
    assert.equal(secrets.status, 403);
    assert.equal(secrets.json.message, 'secrets is forbidden: User "system:bootstrap:abcdef" cannot list resource "secrets" in API group "" in the namespace "plat-system"');
    assert.equal((await client.delete(`${CSRS}/node-boot`)).status, 403);
    const approval = await client.put(`${CSRS}/node-boot/approval`, (await client.get(`${CSRS}/node-boot`)).json);
    assert.equal(approval.status, 403);
  });
});
