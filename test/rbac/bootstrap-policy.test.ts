// The bootstrap policy: present after start-up, and reconciled at the next start without losing
// what users changed (autoupdate "true": missing rules and subjects come back, additions stay;
// autoupdate "false": left alone).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/plat.js';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, clusterRoleBinding, created, group, rule, startRbac, user, type RbacPlat } from './support.js';

const G = 'rbac.authorization.platform';
const CERTS = 'certificates.platform';
const DEFAULTS_META = { labels: { 'platform/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.platform/autoupdate': 'true' } };

/** Every bootstrap ClusterRoleBinding: its role and subjects. */
const EXPECTED_BINDINGS: [string, string, unknown[]][] = [
  ['cluster-admin', 'cluster-admin', [group('system:masters')]],
  ['system:discovery', 'system:discovery', [group('system:authenticated')]],
  ['system:basic-user', 'system:basic-user', [group('system:authenticated')]],
  ['system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]],
  ['system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]],
  ['system:node', 'system:node', []],
  ['system:controller:certificate-controller', 'system:controller:certificate-controller', [{ kind: 'ServiceAccount', name: 'certificate-controller', namespace: 'plat-system' }]],
  ['system:controller:namespace-controller', 'system:controller:namespace-controller', [{ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'plat-system' }]],
  ['system:controller:service-account-controller', 'system:controller:service-account-controller', [{ kind: 'ServiceAccount', name: 'service-account-controller', namespace: 'plat-system' }]],
  ['system:controller:generic-garbage-collector', 'system:controller:generic-garbage-collector', [{ kind: 'ServiceAccount', name: 'generic-garbage-collector', namespace: 'plat-system' }]],
  ['system:controller:clusterrole-aggregation-controller', 'system:controller:clusterrole-aggregation-controller', [{ kind: 'ServiceAccount', name: 'clusterrole-aggregation-controller', namespace: 'plat-system' }]],
  ['system:controller:node-controller', 'system:controller:node-controller', [{ kind: 'ServiceAccount', name: 'node-controller', namespace: 'plat-system' }]],
  ['system:controller:legacy-service-account-token-cleaner', 'system:controller:legacy-service-account-token-cleaner', [{ kind: 'ServiceAccount', name: 'legacy-service-account-token-cleaner', namespace: 'plat-system' }]],
  ['system:kube-controller-manager', 'system:kube-controller-manager', [user('system:kube-controller-manager')]],
  ['plat:nodeagent-bootstrap', 'system:node-bootstrapper', [group('system:bootstrappers')]],
  ['plat:node-autoapprove-bootstrap', 'system:certificates.platform:certificatesigningrequests:nodeclient', [group('system:bootstrappers')]],
  ['plat:node-autoapprove-certificate-rotation', 'system:certificates.platform:certificatesigningrequests:selfnodeclient', [group('system:nodes')]],
];

/** Some bootstrap ClusterRoles and their exact rules. */
const EXPECTED_ROLES: [string, unknown[]][] = [
  ['cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]],
  ['system:public-info-viewer', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]],
  ['system:auth-delegator', [rule(['create'], ['authentication.platform'], ['tokenreviews']), rule(['create'], ['authorization.platform'], ['subjectaccessreviews'])]],
  ['system:service-account-issuer-discovery', [{ verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'] }]],
  ['system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [CERTS], ['certificatesigningrequests'])]],
  ['system:certificates.platform:certificatesigningrequests:nodeclient', [rule(['create'], [CERTS], ['certificatesigningrequests/nodeclient'])]],
  ['system:certificates.platform:certificatesigningrequests:selfnodeclient', [rule(['create'], [CERTS], ['certificatesigningrequests/selfnodeclient'])]],
  ['system:certificates.platform:legacy-unknown-approver', [rule(['approve'], [CERTS], ['signers'], ['platform/legacy-unknown'])]],
  ['system:certificates.platform:nodeagent-serving-approver', [rule(['approve'], [CERTS], ['signers'], ['platform/nodeagent-serving'])]],
  ['system:certificates.platform:apiserver-client-approver', [rule(['approve'], [CERTS], ['signers'], ['platform/apiserver-client'])]],
  ['system:certificates.platform:apiserver-client-nodeagent-approver', [rule(['approve'], [CERTS], ['signers'], ['platform/apiserver-client-nodeagent'])]],
  // upstream's testdata/cluster-roles.yaml, kept to the resources plat serves (events: the core group only).
  ['system:node', [
    rule(['create'], ['authentication.platform'], ['tokenreviews']),
    rule(['create'], ['authorization.platform'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
    rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['nodes']),
    rule(['create', 'patch', 'update'], [''], ['events']),
    rule(['create', 'get', 'list', 'watch'], [CERTS], ['certificatesigningrequests']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.platform'], ['leases']),
  ]],
  // upstream's testdata/controller-roles.yaml.
  ['system:controller:namespace-controller', [
    rule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
    rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    rule(['delete', 'deletecollection', 'get', 'list'], ['*'], ['*']),
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
  ]],
  ['system:controller:service-account-controller', [
    rule(['create'], [''], ['serviceaccounts']),
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
  ]],
  ['system:controller:generic-garbage-collector', [
    rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']),
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
  ]],
  // upstream's controller_policy.go: it writes rules it does not hold into the roles it aggregates.
  ['system:controller:clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'patch', 'update', 'watch'], [G], ['clusterroles'])]],
  ['system:controller:node-controller', [
    rule(['delete', 'get', 'list', 'patch', 'update'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['delete', 'get', 'list'], [''], ['pods']),
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
  ]],
  ['system:controller:legacy-service-account-token-cleaner', [
    rule(['delete', 'patch'], [''], ['secrets']),
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
  ]],
  ['system:kube-controller-manager', [
    rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events']),
    rule(['create'], ['coordination.platform'], ['leases']),
    rule(['get', 'update'], ['coordination.platform'], ['leases'], ['plat-controller-manager']),
    rule(['create'], [''], ['secrets', 'serviceaccounts']),
    rule(['delete'], [''], ['secrets']),
    rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
    rule(['update'], [''], ['secrets', 'serviceaccounts']),
    rule(['create'], ['authentication.platform'], ['tokenreviews']),
    rule(['create'], ['authorization.platform'], ['subjectaccessreviews']),
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['create'], [''], ['serviceaccounts/token']),
  ]],
];

describe('RBAC bootstrap policy', () => {
  const dataDir = tempDir('plat-rbac-bootstrap-');
  let plat: RbacPlat | undefined;
  after(async () => { await plat?.stop(); rmSync(dataDir, { recursive: true, force: true }); });

  before(async () => { plat = await startRbac([{ name: 'someone' }], { dataDir }); });

  it('exists after start-up, labelled and marked for auto-update', async () => {
    for (const [name, roleName, subjects] of EXPECTED_BINDINGS) {
      const r = await plat!.admin.get(`${CLUSTER_ROLE_BINDINGS}/${name}`);
      assert.equal(r.status, 200, `${name}: ${r.text}`);
      assert.deepEqual(r.json.metadata.labels, DEFAULTS_META.labels, name);
      assert.deepEqual(r.json.metadata.annotations, DEFAULTS_META.annotations, name);
      assert.deepEqual(r.json.roleRef, { apiGroup: G, kind: 'ClusterRole', name: roleName }, name);
      assert.deepEqual(r.json.subjects ?? [], subjects, name);
      assert.equal((await plat!.admin.get(`${CLUSTER_ROLES}/${roleName}`)).status, 200, `role ${roleName}`);
    }
    for (const [name, rules] of EXPECTED_ROLES) {
      const r = await plat!.admin.get(`${CLUSTER_ROLES}/${name}`);
      assert.deepEqual(r.json.rules, rules, name);
      assert.deepEqual(r.json.metadata.labels, DEFAULTS_META.labels, name);
    }
    const kcm = (await plat!.admin.get(`${CLUSTER_ROLES}/system:kube-controller-manager`)).json;
    assert.deepEqual(kcm.rules.filter((x: any) => x.apiGroups?.includes('coordination.platform')), [
      rule(['create'], ['coordination.platform'], ['leases']),
      rule(['get', 'update'], ['coordination.platform'], ['leases'], ['plat-controller-manager']),
    ], 'its leader election Lease');
    assert.ok(kcm.rules.some((x: any) => isDeepStrictEqual(x, rule(['list', 'watch'], ['*'], ['*']))), 'its informers');
    assert.ok(kcm.rules.some((x: any) => isDeepStrictEqual(x, rule(['create'], [''], ['serviceaccounts/token']))), 'the service accounts\' tokens');
    // Upstream's kube-system role, in plat-system: the controller manager's endpoint reads its authentication settings there.
    const ns = '/apis/rbac.authorization.platform/v1/namespaces/plat-system';
    const reader = await plat!.admin.get(`${ns}/roles/extension-apiserver-authentication-reader`);
    assert.equal(reader.status, 200, reader.text);
    assert.deepEqual(reader.json.rules, [rule(['get', 'list', 'watch'], [''], ['configmaps'], ['extension-apiserver-authentication'])]);
    assert.deepEqual(reader.json.metadata.labels, DEFAULTS_META.labels);
    const readerBinding = (await plat!.admin.get(`${ns}/rolebindings/system::extension-apiserver-authentication-reader`)).json;
    assert.deepEqual(readerBinding.roleRef, { apiGroup: G, kind: 'Role', name: 'extension-apiserver-authentication-reader' });
    assert.deepEqual(readerBinding.subjects, [user('system:kube-controller-manager')]);
    // upstream's namespace_policy.go: the token cleaner deletes Secrets in the bootstrap tokens' namespace only.
    const cleaner = (await plat!.admin.get(`${ns}/roles/system:controller:token-cleaner`)).json;
    assert.deepEqual(cleaner.rules, [rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']), rule(['create', 'patch', 'update'], ['', 'events.platform'], ['events'])]);
    assert.deepEqual(cleaner.metadata.labels, DEFAULTS_META.labels);
    const cleanerBinding = (await plat!.admin.get(`${ns}/rolebindings/system:controller:token-cleaner`)).json;
    assert.deepEqual(cleanerBinding.roleRef, { apiGroup: G, kind: 'Role', name: 'system:controller:token-cleaner' });
    assert.deepEqual(cleanerBinding.subjects, [{ kind: 'ServiceAccount', name: 'token-cleaner', namespace: 'plat-system' }]);
    assert.equal((await plat!.admin.get(`${CLUSTER_ROLES}/system:controller:token-cleaner`)).status, 404, 'a Role, not a ClusterRole');
    const controller = (await plat!.admin.get(`${CLUSTER_ROLES}/system:controller:certificate-controller`)).json;
    assert.deepEqual(controller.rules.find((x: any) => x.verbs[0] === 'sign').resourceNames,
      ['platform/apiserver-client', 'platform/apiserver-client-nodeagent', 'platform/legacy-unknown', 'platform/nodeagent-serving']);
  });

  it('a restart keeps user changes, restores what is missing, and leaves autoupdate=false alone', async () => {
    const admin = plat!.admin;
    const path = (p: string, n: string) => `${p}/${n}`;
    // A user narrows node-bootstrapper (drops watch), adds a rule of their own, and aggregates it.
    const nb = (await admin.get(path(CLUSTER_ROLES, 'system:node-bootstrapper'))).json;
    const mine = rule(['get'], [''], ['namespaces']);
    assert.equal((await admin.put(path(CLUSTER_ROLES, 'system:node-bootstrapper'), {
      ...nb, rules: [rule(['create', 'get', 'list'], [CERTS], ['certificatesigningrequests']), mine],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'aggregate-to': 'node-bootstrapper' } }] },
    })).status, 200);
    // basic-user opts out and is emptied.
    const bu = (await admin.get(path(CLUSTER_ROLES, 'system:basic-user'))).json;
    bu.metadata.annotations['rbac.authorization.platform/autoupdate'] = 'false';
    assert.equal((await admin.put(path(CLUSTER_ROLES, 'system:basic-user'), { ...bu, rules: [] })).status, 200);
    // discovery's binding gets another subject, and loses its group.
    const db = (await admin.get(path(CLUSTER_ROLE_BINDINGS, 'system:discovery'))).json;
    assert.equal((await admin.put(path(CLUSTER_ROLE_BINDINGS, 'system:discovery'), { ...db, subjects: [user('someone')] })).status, 200);
    // One binding is deleted, another one replaced with a different role.
    assert.equal((await admin.delete(path(CLUSTER_ROLE_BINDINGS, 'plat:nodeagent-bootstrap'))).status, 200);
    assert.equal((await admin.delete(path(CLUSTER_ROLE_BINDINGS, 'system:public-info-viewer'))).status, 200);
    await created(admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('system:public-info-viewer', 'system:discovery', [group('system:authenticated')]));
    // A labelled-by-the-user default keeps its label.
    const ca = (await admin.get(path(CLUSTER_ROLES, 'cluster-admin'))).json;
    ca.metadata.labels['team'] = 'platform';
    assert.equal((await admin.put(path(CLUSTER_ROLES, 'cluster-admin'), ca)).status, 200);

    await plat!.stop();
    plat = undefined;
    plat = await startRbac([{ name: 'someone' }], { dataDir });
    const again = plat.admin;

    const nb2 = (await again.get(path(CLUSTER_ROLES, 'system:node-bootstrapper'))).json;
    assert.deepEqual(nb2.rules, [rule(['create', 'get', 'list'], [CERTS], ['certificatesigningrequests']), mine,
      rule(['watch'], [CERTS], ['certificatesigningrequests'])], 'the user rule stays, the missing verb comes back');
    assert.equal(nb2.aggregationRule, undefined, 'a role not expected to be aggregated loses the aggregation');
    const bu2 = (await again.get(path(CLUSTER_ROLES, 'system:basic-user'))).json;
    assert.deepEqual(bu2.rules ?? [], [], 'autoupdate=false is left alone');
    assert.equal(bu2.metadata.annotations['rbac.authorization.platform/autoupdate'], 'false');
    const db2 = (await again.get(path(CLUSTER_ROLE_BINDINGS, 'system:discovery'))).json;
    assert.deepEqual(db2.subjects, [user('someone'), group('system:authenticated')], 'added subject kept, missing one restored');
    const nab = (await again.get(path(CLUSTER_ROLE_BINDINGS, 'plat:nodeagent-bootstrap'))).json;
    assert.deepEqual(nab.subjects, [group('system:bootstrappers')], 'a deleted default is created again');
    const piv = (await again.get(path(CLUSTER_ROLE_BINDINGS, 'system:public-info-viewer'))).json;
    assert.equal(piv.roleRef.name, 'system:public-info-viewer', 'another roleRef: recreated');
    assert.deepEqual(piv.subjects, [group('system:authenticated'), group('system:unauthenticated')]);
    const ca2 = (await again.get(path(CLUSTER_ROLES, 'cluster-admin'))).json;
    assert.deepEqual(ca2.metadata.labels, { ...DEFAULTS_META.labels, team: 'platform' });
  });

  it('a start with nothing to change writes nothing', async () => {
    const before = (await plat!.admin.get(CLUSTER_ROLES)).json.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion]);
    await plat!.stop();
    plat = undefined;
    plat = await startRbac([], { dataDir });
    const now = (await plat.admin.get(CLUSTER_ROLES)).json.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion]);
    assert.deepEqual(now, before);
  });
});
