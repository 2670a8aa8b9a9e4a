// The user-facing default roles through kubectl against the `plat all` command under RBAC: a
// RoleBinding to `view` lets a token user read a namespace's service accounts but not its secrets,
// `edit` adds the secrets, and `admin` may hand `view` on to another user in that namespace (it
// holds every rule of it there). The aggregation controller of `plat all` fills the three roles.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const USERS = ['alice', 'bob', 'carol', 'dave'];

function tokenKubeconfig(dir: string, plat: RunningPlat, name: string): string {
  const file = path.join(dir, `${name}.conf`);
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}\nusers:\n- name: u\n  user:\n    token: token-${name}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u, namespace: team}\ncurrent-context: c\n`);
  return file;
}

describe('kubectl and the default roles admin, edit, view', () => {
  let plat: RunningPlat & { stop(): Promise<void> };
  let admin: Kubectl;
  const as: Record<string, Kubectl> = {};
  before(async () => {
    const dir = tempDir('plat-default-roles-');
    writeFileSync(path.join(dir, 'tokens.csv'), USERS.map((u, i) => `token-${u},${u},uid-${i}`).join('\n') + '\n');
    plat = await startProcess({ args: ['--authorization-mode=RBAC', `--token-auth-file=${path.join(dir, 'tokens.csv')}`] });
    admin = new Kubectl(plat.kubeconfig);
    for (const u of USERS) as[u] = new Kubectl(tokenKubeconfig(dir, plat, u));
  });
  after(async () => { await plat?.stop(); });

  const ok = async (k: Kubectl, args: string[]) => {
    const r = await k.run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  it('view reads what it may and no secrets; edit reads secrets; admin binds view in its namespace', async () => {
    await ok(admin, ['create', 'namespace', 'team']);
    await ok(admin, ['-n', 'team', 'create', 'secret', 'generic', 's1', '--from-literal=a=b']);
    // The service account controller gives the namespace its `default`.
    await ok(admin, ['-n', 'team', 'wait', '--for=create', 'serviceaccount/default', '--timeout=30s']);
    assert.equal(await ok(admin, ['create', 'rolebinding', 'alice-view', '--clusterrole=view', '--user=alice', '-n', 'team']),
      'rolebinding.rbac.authorization.k8s.io/alice-view created\n');

    // The controller may still be filling view: the first read waits for it.
    const alice = as['alice']!;
    await until(async () => (await alice.run(['get', 'serviceaccounts', '-o', 'name'])).stdout === 'serviceaccount/default\n', 'alice reads serviceaccounts');
    const secrets = await alice.run(['get', 'secrets']);
    assert.equal(secrets.code, 1);
    assert.equal(secrets.stderr, 'Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "team"\n');
    assert.equal((await alice.run(['auth', 'can-i', 'get', 'secrets'])).stdout, 'no\n');
    assert.equal(await ok(alice, ['auth', 'can-i', 'list', 'serviceaccounts']), 'yes\n');
    assert.equal((await alice.run(['auth', 'can-i', 'list', 'serviceaccounts', '-n', 'default'])).stdout, 'no\n', 'only in team');

    await ok(admin, ['create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob', '-n', 'team']);
    const bob = as['bob']!;
    assert.equal(await ok(bob, ['get', 'secrets', '-o', 'name']), 'secret/s1\n');
    assert.equal(await ok(bob, ['create', 'token', 'default', '--duration=10m']).then((t) => t.split('.').length), 3, 'a token of a service account');
    const refused = await bob.run(['create', 'rolebinding', 'x', '--clusterrole=view', '--user=dave']);
    assert.match(refused.stderr, /User "bob" cannot create resource "rolebindings" in API group "rbac.authorization.platform" in the namespace "team"/);

    await ok(admin, ['create', 'rolebinding', 'carol-admin', '--clusterrole=admin', '--user=carol', '-n', 'team']);
    await ok(as['carol']!, ['create', 'rolebinding', 'dave-view', '--clusterrole=view', '--user=dave']);
    assert.equal(await ok(as['dave']!, ['get', 'serviceaccounts', '-o', 'name']), 'serviceaccount/default\n');
    assert.equal((await as['dave']!.run(['get', 'secrets'])).code, 1);
  });
});
