// Privilege-escalation prevention end to end: writing roles and bindings needs the permissions they
// grant, or `escalate` / `bind`; system:masters is exempt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES,
  clusterRole, clusterRoleBinding, created, namespace, role, roleBinding, rule, startRbac, user, type RbacPlat,
} from './support.js';

const RBAC_GROUP = 'rbac.authorization.platform';

describe('RBAC escalation prevention', () => {
  let plat: RbacPlat;
  before(async () => {
    plat = await startRbac([
      { name: 'writer', groups: ['team'] }, { name: 'escalator' }, { name: 'named' }, { name: 'binder' }, { name: 'nsadmin' }, { name: 'target' },
      { name: 'master', groups: ['system:masters'] },
    ]);
    await namespace(plat, 'dev');
    // writer may manage RBAC objects, and holds get/list on secrets, nothing more.
    await created(plat.admin, CLUSTER_ROLES, clusterRole('rbac-writer', [
      rule(['create', 'update', 'patch', 'get', 'delete'], [RBAC_GROUP], ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings']),
      rule(['get', 'list'], [''], ['secrets']),
    ]));
    for (const u of ['writer', 'escalator', 'named', 'binder', 'nsadmin']) {
      await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding(`${u}-rbac-writer`, 'rbac-writer', [user(u)]));
    }
    await created(plat.admin, CLUSTER_ROLES, clusterRole('escalate-clusterroles', [rule(['escalate'], [RBAC_GROUP], ['clusterroles'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('escalator-escalates', 'escalate-clusterroles', [user('escalator')]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-admin', [rule(['*'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('bind-secret-admin', [rule(['bind'], [RBAC_GROUP], ['clusterroles'], ['secret-admin'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('binder-binds', 'bind-secret-admin', [user('binder')]));
  });
  after(async () => { await plat?.stop(); });

  it('a role with permissions the writer holds is created', async () => {
    await created(plat.as('writer'), CLUSTER_ROLES, clusterRole('held', [rule(['get'], [''], ['secrets'])]));
  });

  it('a role with permissions the writer lacks is refused, listing them as upstream does', async () => {
    const r = await plat.as('writer').post(CLUSTER_ROLES, clusterRole('too-much', [
      rule(['get', 'delete', 'create'], [''], ['secrets']),
      rule(['get'], [''], ['namespaces'], ['a', 'b']),
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
    ]));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.reason, 'Forbidden');
    assert.deepEqual(r.json.details, { name: 'too-much', group: RBAC_GROUP, kind: 'clusterroles' });
    assert.equal(r.json.message, 'clusterroles.rbac.authorization.platform "too-much" is forbidden: '
      + 'user "writer" (groups=["team" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
      + '{APIGroups:[""], Resources:["namespaces"], ResourceNames:["a"], Verbs:["get"]}\n'
      + '{APIGroups:[""], Resources:["namespaces"], ResourceNames:["b"], Verbs:["get"]}\n'
      + '{APIGroups:[""], Resources:["secrets"], Verbs:["delete" "create"]}\n'
      + '{NonResourceURLs:["/metrics"], Verbs:["get"]}');
    assert.equal((await plat.admin.get(`${CLUSTER_ROLES}/too-much`)).status, 404, 'nothing stored');
  });

  it('escalation is checked on update too, and a role cannot be widened beyond the writer', async () => {
    const held = (await plat.admin.get(`${CLUSTER_ROLES}/held`)).json;
    const wider = { ...held, rules: [rule(['get', 'watch'], [''], ['secrets'])] };
    const r = await plat.as('writer').put(`${CLUSTER_ROLES}/held`, wider);
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, /^clusterroles\.rbac\.authorization\.platform "held" is forbidden: user "writer" .*\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["watch"\]\}$/);
    const narrower = await plat.as('writer').put(`${CLUSTER_ROLES}/held`, { ...held, rules: [rule(['list'], [''], ['secrets'])] });
    assert.equal(narrower.status, 200, narrower.text);
  });

  it('a change to labels alone still needs the role\'s permissions; finalizers alone do not', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('admins-only', [rule(['*'], ['*'], ['*'])]));
    const cur = (await plat.admin.get(`${CLUSTER_ROLES}/admins-only`)).json;
    const labelled = await plat.as('writer').put(`${CLUSTER_ROLES}/admins-only`, { ...cur, metadata: { ...cur.metadata, labels: { a: 'b' } } });
    assert.equal(labelled.status, 403, labelled.text);
    const finalized = await plat.as('writer').put(`${CLUSTER_ROLES}/admins-only`, { ...cur, metadata: { ...cur.metadata, finalizers: ['example.com/keep'] } });
    assert.equal(finalized.status, 200, finalized.text);
  });

  it('`escalate` on clusterroles lifts the check', async () => {
    await created(plat.as('escalator'), CLUSTER_ROLES, clusterRole('escalated', [rule(['*'], ['*'], ['*'])]));
  });

  it('`escalate` scoped by name lifts it for a role the URL names: a PUT or apply that creates, not a POST', async () => {
    // RoleEscalationAuthorized asks with RequestInfo.Name, which only a POST lacks.
    const names = ['by-put', 'by-apply', 'by-post'];
    await created(plat.admin, CLUSTER_ROLES, clusterRole('escalate-named', [rule(['escalate'], [RBAC_GROUP], ['clusterroles'], names)]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('named-escalates', 'escalate-named', [user('named')]));
    const wide = (name: string) => clusterRole(name, [rule(['*'], ['*'], ['*'])]);
    const put = await plat.as('named').put(`${CLUSTER_ROLES}/by-put`, wide('by-put'));
    assert.equal(put.status, 201, put.text);
    const applied = await plat.as('named').patch(`${CLUSTER_ROLES}/by-apply?fieldManager=test`, JSON.stringify(wide('by-apply')), 'application/apply-patch+yaml');
    assert.equal(applied.status, 201, applied.text);
    const posted = await plat.as('named').post(CLUSTER_ROLES, wide('by-post'));
    assert.equal(posted.status, 403, posted.text);
    assert.match(posted.json.message, /^clusterroles\.rbac\.authorization\.platform "by-post" is forbidden: user "named" .* not currently held:/);
    const other = await plat.as('named').put(`${CLUSTER_ROLES}/not-named`, wide('not-named'));
    assert.equal(other.status, 403, 'a name the grant does not list');
  });

  it('a namespaced Role: the writer\'s rules in that namespace count', async () => {
    await created(plat.admin, ROLES('dev'), role('dev-all', [rule(['*'], ['*'], ['*'])]));
    await created(plat.admin, ROLE_BINDINGS('dev'), roleBinding('nsadmin-dev', 'Role', 'dev-all', [user('nsadmin')]));
    await created(plat.as('nsadmin'), ROLES('dev'), role('dev-secrets', [rule(['delete'], [''], ['secrets'])]));
    const r = await plat.as('nsadmin').post(ROLES('default'), role('default-secrets', [rule(['delete'], [''], ['secrets'])]));
    assert.equal(r.status, 403, 'not held in another namespace');
    assert.match(r.json.message, /^roles\.rbac\.authorization\.platform "default-secrets" is forbidden: user "nsadmin" .* not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["delete"\]\}$/);
  });

  it('binding a role whose permissions the writer holds is allowed', async () => {
    await created(plat.as('writer'), CLUSTER_ROLE_BINDINGS, clusterRoleBinding('writer-binds-held', 'held', [user('target')]));
  });

  it('binding a role whose permissions the writer lacks is refused', async () => {
    const r = await plat.as('writer').post(CLUSTER_ROLE_BINDINGS, clusterRoleBinding('writer-binds-admin', 'secret-admin', [user('target')]));
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(r.json.details, { name: 'writer-binds-admin', group: RBAC_GROUP, kind: 'clusterrolebindings' });
    assert.equal(r.json.message, 'clusterrolebindings.rbac.authorization.platform "writer-binds-admin" is forbidden: '
      + 'user "writer" (groups=["team" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
      + '{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}');
  });

  it('`bind` on the named ClusterRole lifts the check for that role only', async () => {
    await created(plat.as('binder'), CLUSTER_ROLE_BINDINGS, clusterRoleBinding('binder-binds-admin', 'secret-admin', [user('target')]));
    await created(plat.as('binder'), ROLE_BINDINGS('dev'), roleBinding('binder-binds-admin-dev', 'ClusterRole', 'secret-admin', [user('target')]));
    const other = await plat.as('binder').post(CLUSTER_ROLE_BINDINGS, clusterRoleBinding('binder-binds-escalated', 'escalated', [user('target')]));
    assert.equal(other.status, 403, other.text);
  });

  it('binding a role that does not exist: 404 for a non-master (the role is looked up), allowed for system:masters (exempt)', async () => {
    const r = await plat.as('writer').post(CLUSTER_ROLE_BINDINGS, clusterRoleBinding('to-nothing', 'missing-role', [user('target')]));
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.message, 'clusterroles.rbac.authorization.platform "missing-role" not found');
    await created(plat.as('master'), CLUSTER_ROLE_BINDINGS, clusterRoleBinding('to-nothing', 'missing-role', [user('target')]));
  });

  it('an aggregationRule needs full authority', async () => {
    const body = clusterRole('aggregating', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } });
    const r = await plat.as('writer').post(CLUSTER_ROLES, body);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'clusterroles.rbac.authorization.platform "aggregating" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });

  it('a roleRef of another apiGroup is still checked first, as upstream\'s resolver ignores the group: 403, not 422', async () => {
    const body = clusterRoleBinding('foreign-group-ref', 'secret-admin', [user('target')]);
    const r = await plat.as('writer').post(CLUSTER_ROLE_BINDINGS, { ...body, roleRef: { ...body.roleRef, apiGroup: 'foo.example' } });
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, /is attempting to grant RBAC permissions not currently held/);
  });

  it('an invalid roleRef is refused by validation (422), not by the escalation check', async () => {
    const body = clusterRoleBinding('bad-ref', 'held', [user('target')]);
    const r = await plat.as('writer').post(CLUSTER_ROLE_BINDINGS, { ...body, roleRef: { ...body.roleRef, kind: 'Role' } });
    assert.equal(r.status, 422, r.text);
  });
});

// RoleEscalationAuthorized and BindingAuthorized log an authorizer's error and take it as not
// allowed: the check of the writer's own permissions still decides.
describe('RBAC escalation prevention with an authorizer that fails on escalate and bind', () => {
  let plat: RbacPlat;
  const FailingOnEscalation: Plugin = {
    name: 'FailingOnEscalation',
    apply(host) {
      host.hooks.authorize.tap({ name: 'FailingOnEscalation', stage: -1 }, (a) => {
        if (a.verb === 'escalate' || a.verb === 'bind') throw new Error('policy store unreachable');
        return undefined;
      });
    },
  };
  before(async () => {
    plat = await startRbac([{ name: 'writer' }], { plugins: [FailingOnEscalation] });
    await created(plat.admin, CLUSTER_ROLES, clusterRole('rbac-writer', [
      rule(['create'], [RBAC_GROUP], ['clusterroles', 'clusterrolebindings']),
      rule(['get'], [''], ['secrets']),
    ]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('writer-rbac-writer', 'rbac-writer', [user('writer')]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-reader', [rule(['get'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-admin', [rule(['*'], [''], ['secrets'])]));
  });
  after(async () => { await plat?.stop(); });

  it('a role or binding with permissions the writer holds is created', async () => {
    await created(plat.as('writer'), CLUSTER_ROLES, clusterRole('held', [rule(['get'], [''], ['secrets'])]));
    await created(plat.as('writer'), CLUSTER_ROLE_BINDINGS, clusterRoleBinding('reads', 'secret-reader', [user('writer')]));
  });

  it('one with permissions the writer lacks is refused as without the failure (403)', async () => {
    const r = await plat.as('writer').post(CLUSTER_ROLES, clusterRole('too-much', [rule(['delete'], [''], ['secrets'])]));
    assert.equal(r.status, 403, r.text);
    const b = await plat.as('writer').post(CLUSTER_ROLE_BINDINGS, clusterRoleBinding('admins', 'secret-admin', [user('writer')]));
    assert.equal(b.status, 403, b.text);
  });
});
