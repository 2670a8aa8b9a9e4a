// The RBAC authorizer end to end over HTTPS: what bindings grant, where, to whom; and that RBAC
// has no opinion otherwise (the request is 403 with upstream's message).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorize } from '../../core/authz/authorize.js';
import type { Attributes } from '../../core/authz/attributes.js';
import { RbacAuthorizer } from '../../plugins/rbac/index.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, CSRS, ROLE_BINDINGS, ROLES, SECRETS,
  clusterRole, clusterRoleBinding, created, group, namespace, role, roleBinding, rule, startRbac, user, type RbacPlat,
} from './support.js';

const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: 'v' } });

describe('RBAC authorizer', () => {
  let plat: RbacPlat;
  before(async () => {
    plat = await startRbac([
      { name: 'nobody' }, { name: 'alice' }, { name: 'bob', groups: ['readers'] }, { name: 'carol' }, { name: 'dave' },
      { name: 'erin' }, { name: 'frank' },
    ]);
    await namespace(plat, 'team-a');
    await namespace(plat, 'team-b');
    for (const ns of ['team-a', 'team-b']) await created(plat.admin, SECRETS(ns), secret('s1'));
  });
  after(async () => { await plat?.stop(); });

  it('a user with no bindings is refused with upstream\'s message', async () => {
    const cases: [string, () => Promise<{ status: number; json: any }>, string][] = [
      ['list cluster-scoped', () => plat.as('nobody').get(CSRS),
        'certificatesigningrequests.certificates.platform is forbidden: User "nobody" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope'],
      ['get namespaced', () => plat.as('nobody').get(`${SECRETS('team-a')}/s1`),
        'secrets "s1" is forbidden: User "nobody" cannot get resource "secrets" in API group "" in the namespace "team-a"'],
      ['non-resource path', () => plat.as('nobody').get('/metrics'),
        'forbidden: User "nobody" cannot get path "/metrics"'],
    ];
    for (const [what, call, message] of cases) {
      const r = await call();
      assert.equal(r.status, 403, what);
      assert.equal(r.json.reason, 'Forbidden', what);
      assert.equal(r.json.message, message, what);
    }
  });

  it('the default policy still lets an authenticated user discover the API and check health', async () => {
    for (const p of ['/api', '/apis', '/version', '/healthz', '/livez', '/readyz', `/apis/rbac.authorization.platform/v1`]) {
      assert.equal((await plat.as('nobody').get(p)).status, 200, p);
    }
  });

  it('a RoleBinding grants only in its own namespace', async () => {
    await created(plat.admin, ROLES('team-a'), role('secret-reader', [rule(['get', 'list'], [''], ['secrets'])]));
    await created(plat.admin, ROLE_BINDINGS('team-a'), roleBinding('alice-reads', 'Role', 'secret-reader', [user('alice')]));
    assert.equal((await plat.as('alice').get(`${SECRETS('team-a')}/s1`)).status, 200);
    assert.equal((await plat.as('alice').get(SECRETS('team-a'))).status, 200);
    assert.equal((await plat.as('alice').get(`${SECRETS('team-b')}/s1`)).status, 403);
    assert.equal((await plat.as('alice').get('/api/v1/secrets')).status, 403, 'not across namespaces');
    assert.equal((await plat.as('alice').delete(`${SECRETS('team-a')}/s1`)).status, 403, 'only the verbs granted');
  });

  it('a RoleBinding to a ClusterRole grants that role in the binding\'s namespace only', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-lister', [rule(['list'], [''], ['secrets'])]));
    await created(plat.admin, ROLE_BINDINGS('team-b'), roleBinding('carol-lists', 'ClusterRole', 'secret-lister', [user('carol')]));
    assert.equal((await plat.as('carol').get(SECRETS('team-b'))).status, 200);
    assert.equal((await plat.as('carol').get(SECRETS('team-a'))).status, 403);
  });

  it('a ClusterRoleBinding grants everywhere, to a group\'s members', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-getter', [rule(['get', 'list'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('readers-get', 'secret-getter', [group('readers')]));
    for (const ns of ['team-a', 'team-b']) assert.equal((await plat.as('bob').get(`${SECRETS(ns)}/s1`)).status, 200, ns);
    assert.equal((await plat.as('bob').get('/api/v1/secrets')).status, 200, 'across namespaces');
    assert.equal((await plat.as('alice').get(`${SECRETS('team-b')}/s1`)).status, 403, 'not to others');
  });

  it('resourceNames allow the named objects only, and never list or create', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('one-secret', [rule(['get', 'list', 'create', 'update'], [''], ['secrets'], ['s1'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('dave-one-secret', 'one-secret', [user('dave')]));
    assert.equal((await plat.as('dave').get(`${SECRETS('team-a')}/s1`)).status, 200);
    assert.equal((await plat.as('dave').get(`${SECRETS('team-a')}/s2`)).status, 403);
    assert.equal((await plat.as('dave').get(SECRETS('team-a'))).status, 403, 'list has no name');
    assert.equal((await plat.as('dave').post(SECRETS('team-a'), secret('s1'))).status, 403, 'create has no name in the URL');
    const s1 = (await plat.admin.get(`${SECRETS('team-a')}/s1`)).json;
    assert.equal((await plat.as('dave').put(`${SECRETS('team-a')}/s1`, { ...s1, stringData: { k: 'w' } })).status, 200);
  });

  it('wildcards: verbs, groups, resources, and star/subresource', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('csr-all', [rule(['*'], ['certificates.platform'], ['*'])]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('any-status', [rule(['get'], ['*'], ['*/status'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('erin-csr', 'csr-all', [user('erin')]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('frank-status', 'any-status', [user('frank')]));
    assert.equal((await plat.as('erin').get(CSRS)).status, 200);
    assert.equal((await plat.as('erin').get('/api/v1/namespaces')).status, 403, 'another group');
    assert.equal((await plat.as('frank').get('/api/v1/namespaces/team-a/status')).status, 200, '*/status in any group');
    assert.equal((await plat.as('frank').get('/api/v1/namespaces/team-a')).status, 403, 'not the resource itself');
  });

  it('a new binding takes effect on the very next request, and a deleted one too', async () => {
    const name = 'nobody-csrs';
    assert.equal((await plat.as('nobody').get(CSRS)).status, 403);
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding(name, 'csr-all', [user('nobody')]));
    assert.equal((await plat.as('nobody').get(CSRS)).status, 200);
    assert.equal((await plat.admin.delete(`${CLUSTER_ROLE_BINDINGS}/${name}`)).status, 200);
    assert.equal((await plat.as('nobody').get(CSRS)).status, 403);
  });

  it('non-resource URLs: exact and trailing-star rules', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('metrics-viewer', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('alice-metrics', 'metrics-viewer', [user('alice')]));
    const attrs = (path: string, verb = 'get'): Attributes => ({
      user: { name: 'alice', groups: ['system:authenticated'] }, verb, isResourceRequest: false, path,
      apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
    });
    const allowed = async (path: string, verb?: string) => (await authorize(plat.host!, attrs(path, verb)))?.decision === 'allow';
    assert.equal(await allowed('/metrics'), true);
    assert.equal(await allowed('/metrics/x'), false, 'exact without a star');
    assert.equal(await allowed('/debug/pprof/heap'), true);
    assert.equal(await allowed('/debug'), false, 'the star needs the slash before it');
    assert.equal(await allowed('/metrics', 'post'), false);
    // Over HTTP the non-resource request passes authorization and is served (the API server's /metrics).
    assert.equal((await plat.as('alice').get('/metrics')).status, 200);
    assert.equal((await plat.as('nobody').get('/metrics')).status, 403);
  });

  it('the allow reason names the binding, the role and the subject as upstream', async () => {
    const csrList: Attributes = {
      user: { name: 'bob', groups: ['readers', 'system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '',
      apiGroup: '', apiVersion: 'v1', resource: 'secrets', subresource: '', namespace: 'team-a', name: 's1',
    };
    assert.deepEqual(await authorize(plat.host!, csrList),
      { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers-get" of ClusterRole "secret-getter" to Group "readers"' });
    assert.deepEqual(await authorize(plat.host!, { ...csrList, user: { name: 'alice', groups: ['system:authenticated'] } }),
      { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "alice-reads/team-a" of Role "secret-reader" to User "alice"' });
    assert.equal(await authorize(plat.host!, { ...csrList, user: { name: 'nobody', groups: ['system:authenticated'] } }), undefined,
      'no opinion, never a deny');
  });

  it('a binding to a missing role grants nothing; the 403 names it as upstream\'s lister does', async () => {
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('dangling', 'does-not-exist', [user('nobody'), user('frank')]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('dangling-again', 'does-not-exist', [user('frank')]));
    await created(plat.admin, ROLE_BINDINGS('team-b'), roleBinding('dangling-role', 'Role', 'ghost', [user('nobody')]));
    const missing = (kind: string, name: string) => `${kind}.rbac.authorization.platform "${name}" not found`;
    const cases: [string, string, string, string][] = [
      ['one missing ClusterRole', 'nobody', CSRS,
        `certificatesigningrequests.certificates.platform is forbidden: User "nobody" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope: RBAC: ${missing('clusterrole', 'does-not-exist')}`],
      ['a missing ClusterRole and a missing Role, in bindings order', 'nobody', `${SECRETS('team-b')}/s1`,
        `secrets "s1" is forbidden: User "nobody" cannot get resource "secrets" in API group "" in the namespace "team-b": RBAC: [${missing('clusterrole', 'does-not-exist')}, ${missing('role', 'ghost')}]`],
      ['the same missing role twice, said once', 'frank', CSRS,
        `certificatesigningrequests.certificates.platform is forbidden: User "frank" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope: RBAC: ${missing('clusterrole', 'does-not-exist')}`],
    ];
    for (const [what, who, path, message] of cases) {
      const r = await plat.as(who).get(path);
      assert.equal(r.status, 403, what);
      assert.equal(r.json.message, message, what);
    }
  });
});

describe('RbacAuthorizer in the chain', () => {
  it('provides the RBAC mode, and taps authorize only when listed, at its position', () => {
    const idle = boot([AuthorizationModeFlag, RbacAuthorizer], ['--authorization-mode=AlwaysAllow']).host;
    assert.equal(idle.capabilities.has('authorization-mode', 'RBAC'), true);
    assert.equal(idle.hooks.authorize.taps.length, 0);
    const { host } = boot([AuthorizationModeFlag, RbacAuthorizer], ['--authorization-mode=AlwaysDeny,RBAC']);
    assert.deepEqual(host.hooks.authorize.taps.map((t) => [t.name, t.stage]), [['RbacAuthorizer', 1]]);
  });

  it('has no opinion before the API is served (no objects to read)', async () => {
    const { host } = boot([AuthorizationModeFlag, RbacAuthorizer], ['--authorization-mode=RBAC']);
    const a: Attributes = {
      user: { name: 'plat-admin', groups: ['system:masters', 'system:authenticated'] }, verb: 'get', isResourceRequest: false, path: '/healthz',
      apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
    };
    assert.equal(await authorize(host, a), undefined);
  });
});
