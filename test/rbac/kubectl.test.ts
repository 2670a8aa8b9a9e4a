// kubectl against plat with RBAC: the `create` generators (typed clients that POST protobuf to the
// upstream group rbac.authorization.k8s.io, served as a wire alias), `get` with plat's columns,
// and a token user whose access follows the bindings kubectl made.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { tempDir } from '../helpers/plat.js';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES, SECRETS, created, namespace, startRbac, type RbacPlat } from './support.js';

const G = 'rbac.authorization.platform';

function tokenKubeconfig(file: string, plat: RbacPlat, token: string): string {
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}\nusers:\n- name: u\n  user:\n    token: ${token}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u, namespace: team}\ncurrent-context: c\n`);
  return file;
}

describe('kubectl with RBAC', () => {
  let plat: RbacPlat;
  let admin: Kubectl;
  let alice: Kubectl;
  const ok = async (k: Kubectl, args: string[]) => {
    const r = await k.run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  before(async () => {
    plat = await startRbac([{ name: 'alice', groups: ['devs'] }]);
    await namespace(plat, 'team');
    await created(plat.admin, SECRETS('team'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { a: 'b' } });
    admin = new Kubectl(plat.kubeconfig);
    alice = new Kubectl(tokenKubeconfig(path.join(tempDir('plat-rbac-kubectl-'), 'alice.conf'), plat, 'token-alice'));
  });
  after(async () => { await plat?.stop(); });

  it('create clusterrole and clusterrolebinding store them in the platform group', async () => {
    assert.equal(await ok(admin, ['create', 'clusterrole', 'secret-reader', '--verb=get,list', '--resource=secrets']),
      'clusterrole.rbac.authorization.k8s.io/secret-reader created\n');
    assert.equal(await ok(admin, ['create', 'clusterrolebinding', 'devs-read', '--clusterrole=secret-reader', '--group=devs', '--serviceaccount=team:robot']),
      'clusterrolebinding.rbac.authorization.k8s.io/devs-read created\n');
    const role = (await plat.admin.get(`${CLUSTER_ROLES}/secret-reader`)).json;
    assert.equal(role.apiVersion, `${G}/v1`);
    assert.deepEqual(role.rules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }]);
    const binding = (await plat.admin.get(`${CLUSTER_ROLE_BINDINGS}/devs-read`)).json;
    assert.deepEqual(binding.roleRef, { apiGroup: G, kind: 'ClusterRole', name: 'secret-reader' });
    assert.deepEqual(binding.subjects, [
      { kind: 'Group', apiGroup: G, name: 'devs' }, { kind: 'ServiceAccount', name: 'robot', namespace: 'team' },
    ]);
  });

  it('create role and rolebinding in a namespace', async () => {
    assert.equal(await ok(admin, ['create', 'role', 'one-secret', '-n', 'team', '--verb=delete', '--resource=secrets', '--resource-name=s1']),
      'role.rbac.authorization.k8s.io/one-secret created\n');
    assert.equal(await ok(admin, ['create', 'rolebinding', 'alice-deletes', '-n', 'team', '--role=one-secret', '--user=alice']),
      'rolebinding.rbac.authorization.k8s.io/alice-deletes created\n');
    assert.deepEqual((await plat.admin.get(`${ROLES('team')}/one-secret`)).json.rules,
      [{ verbs: ['delete'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }]);
    assert.deepEqual((await plat.admin.get(`${ROLE_BINDINGS('team')}/alice-deletes`)).json.roleRef, { apiGroup: G, kind: 'Role', name: 'one-secret' });
  });

  it('get clusterroles, clusterrolebindings -o wide and rolebindings print plat\'s columns', async () => {
    const roles = await ok(admin, ['get', 'clusterroles']);
    assert.match(roles, /^NAME\s+CREATED AT\n/);
    assert.match(roles, /\ncluster-admin\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n/);
    assert.match(roles, /\nsecret-reader\s+\d{4}-/);
    const crb = await ok(admin, ['get', 'clusterrolebindings', 'devs-read', '-o', 'wide']);
    assert.match(crb, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\n/);
    assert.match(crb, /\ndevs-read\s+ClusterRole\/secret-reader\s+\S+\s+devs\s+team\/robot\n/);
    const rb = await ok(admin, ['get', 'rolebindings', '-n', 'team']);
    assert.match(rb, /^NAME\s+ROLE\s+AGE\nalice-deletes\s+Role\/one-secret\s+\S+\n$/);
  });

  it('the token user can do exactly what the bindings say', async () => {
    assert.match(await ok(alice, ['get', 'secrets']), /\ns1\s/);
    await ok(alice, ['get', 'secrets', '-n', 'default']); // the group's ClusterRoleBinding reaches every namespace
    const other = await alice.run(['get', 'namespaces']);
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /Error from server \(Forbidden\): namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope/);
    const create = await alice.run(['create', 'clusterrole', 'mine', '--verb=get', '--resource=secrets']);
    assert.notEqual(create.code, 0);
    // kubectl posts to the alias group, which the text names; the authorizers were asked about plat's.
    assert.match(create.stderr, /clusterroles\.rbac\.authorization\.k8s\.io is forbidden: User "alice" cannot create resource "clusterroles" in API group "rbac\.authorization\.platform" at the cluster scope/);
    assert.equal(await ok(alice, ['delete', 'secret', 's1']), 'secret "s1" deleted\n');
  });

  it('a bind rule kubectl writes in upstream\'s group (the only one it takes for bind) lets the user bind', async () => {
    await ok(admin, ['create', 'clusterrole', 'lease-admin', '--verb=*', '--resource=leases']);
    await ok(admin, ['create', 'role', 'binding-writer', '-n', 'team', '--verb=create', '--resource=rolebindings']);
    await ok(admin, ['create', 'rolebinding', 'alice-writes-bindings', '-n', 'team', '--role=binding-writer', '--user=alice']);
    const refused = await alice.run(['create', 'rolebinding', 'bob-leases', '--clusterrole=lease-admin', '--user=bob']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /is attempting to grant RBAC permissions not currently held/);
    // kubectl's specialVerbs: bind only on rbac.authorization.k8s.io's roles and clusterroles.
    const plain = await admin.run(['create', 'role', 'binder', '-n', 'team', '--verb=bind', '--resource=clusterroles', '--resource-name=lease-admin']);
    assert.equal(plain.stderr, "error: can not perform 'bind' on 'clusterroles' in group 'rbac.authorization.platform'\n");
    await ok(admin, ['create', 'role', 'binder', '-n', 'team', '--verb=bind', '--resource=clusterroles.rbac.authorization.k8s.io', '--resource-name=lease-admin']);
    assert.deepEqual((await plat.admin.get(`${ROLES('team')}/binder`)).json.rules,
      [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['lease-admin'] }], 'kept as written');
    await ok(admin, ['create', 'rolebinding', 'alice-binds', '-n', 'team', '--role=binder', '--user=alice']);
    assert.equal(await ok(alice, ['create', 'rolebinding', 'bob-leases', '--clusterrole=lease-admin', '--user=bob']),
      'rolebinding.rbac.authorization.k8s.io/bob-leases created\n');
    // can-i names the group discovery gives (kubectl sends an unresolved `x.k8s.io` as a resource name).
    assert.equal((await alice.run(['auth', 'can-i', 'bind', 'clusterroles.rbac.authorization.platform/lease-admin'])).stdout, 'yes\n');
  });

  it('auth reconcile of an unchanged file changes nothing the second time', async () => {
    const file = path.join(tempDir('plat-rbac-reconcile-'), 'policy.yaml');
    writeFileSync(file, [
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reconciled}\nrules:\n- {verbs: [get], apiGroups: [""], resources: [configmaps]}',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: reconciled}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reconciled}\nsubjects:\n- {kind: User, apiGroup: rbac.authorization.k8s.io, name: carol}',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: reconciled, namespace: team}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reconciled}\nsubjects:\n- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: devs}',
    ].join('\n---\n') + '\n');
    // printResults writes what it did to stderr, the objects to stdout.
    const reconcile = async () => {
      const r = await admin.run(['auth', 'reconcile', '-f', file]);
      assert.equal(r.code, 0, r.stderr);
      return r.stderr;
    };
    assert.match(await reconcile(), /reconciliation required create/);
    const uids = async () => [
      (await plat.admin.get(`${CLUSTER_ROLE_BINDINGS}/reconciled`)).json.metadata.uid,
      (await plat.admin.get(`${ROLE_BINDINGS('team')}/reconciled`)).json.metadata.uid,
    ];
    const before = await uids();
    const second = await reconcile();
    assert.doesNotMatch(second, /reconciliation required/, second);
    assert.deepEqual(await uids(), before, 'the bindings were not recreated');
  });
});
