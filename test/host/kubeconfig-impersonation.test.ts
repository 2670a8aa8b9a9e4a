// An admin kubeconfig that impersonates (the user's `as`, `as-groups`, `as-user-extra`), as kubectl
// uses one, with the `plat` client commands against a real `plat all` under RBAC: every request
// acts as the impersonated user, kubectl's --as/--as-group/--as-uid lay themselves over the file's
// as clientcmd's overrides do, and a user without the right gets kubectl's Forbidden text. kubectl
// itself, given the same kubeconfig and flags, makes the same CSR.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify } from 'yaml';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Kubectl } from '../helpers/kubectl.js';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, CSRS, clusterRole, clusterRoleBinding, created, group, rule, startRbac, type RbacPlat } from '../rbac/support.js';

const NO_ENV = { env: { PLATCONFIG: '', KUBECONFIG: '' } };
const EXTRA = { 'example.com/Scopes': ['view', 'edit'], 'ünïcode key%': ['v'] };

describe('a kubeconfig that impersonates, with plat csr, plat token and plat auth can-i', () => {
  let plat: RbacPlat;
  let impersonating: string;
  const dir = tempDir('plat-kubeconfig-impersonation-');
  const fx = fixtures();

  before(async () => {
    plat = await startRbac([{ name: 'nobody' }]);
    await created(plat.admin, CLUSTER_ROLES, clusterRole('csr-creator', [rule(['create', 'get', 'list', 'watch'], ['certificates.platform'], ['certificatesigningrequests'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('team-a-creates-csrs', 'csr-creator', [group('team-a')]));
    // The admin's own kubeconfig (system:masters may impersonate anyone), acting as alice.
    const doc = parseYaml(readFileSync(plat.kubeconfig, 'utf8'));
    for (const u of doc.users) Object.assign(u.user, { as: 'alice', 'as-groups': ['team-a', 'team-b'], 'as-user-extra': EXTRA });
    impersonating = path.join(dir, 'impersonating.conf');
    writeFileSync(impersonating, stringify(doc));
  });
  after(async () => { await plat?.stop(); });

  const spec = async (name: string) => {
    const r = await plat.admin.get(`${CSRS}/${name}`);
    assert.equal(r.status, 200, r.text);
    const { username, groups, extra, uid } = r.json.spec;
    return { username, groups, extra, uid };
  };
  const writeCsr = (name: string): string => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(baseCsr(fx, name)));
    return file;
  };
  const create = (name: string, ...flags: string[]) => runPlatAsync(['csr', 'create', '--signer', 'example.com/widgets', '--name', name,
    '--cn', name, '--out-dir', dir, '--kubeconfig', impersonating, ...flags], NO_ENV);

  it('plat csr create acts as the kubeconfig\'s user: its groups (and system:authenticated) and extras, keys unescaped', async () => {
    const r = await create('as-alice');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await spec('as-alice'), {
      username: 'alice', groups: ['team-a', 'team-b', 'system:authenticated'],
      // The server lower-cases an extra's key (upstream's impersonation filter).
      extra: { 'example.com/scopes': ['view', 'edit'], 'ünïcode key%': ['v'] }, uid: undefined,
    });
  });

  it('--as, --as-group and --as-uid replace the file\'s (the extras stay); kubectl with the same flags makes the same CSR', async () => {
    const flags = ['--as', 'bob', '--as-group', 'team-a', '--as-group', 'team-c', '--as-uid', 'uid-of-bob'];
    const r = await create('as-bob', ...flags);
    assert.equal(r.code, 0, r.stderr);
    const expected = {
      username: 'bob', groups: ['team-a', 'team-c', 'system:authenticated'], extra: { 'example.com/scopes': ['view', 'edit'], 'ünïcode key%': ['v'] }, uid: 'uid-of-bob',
    };
    assert.deepEqual(await spec('as-bob'), expected);

    const k = await new Kubectl(impersonating).run(['create', '-f', writeCsr('kubectl-as-bob'), ...flags]);
    assert.equal(k.code, 0, k.stderr);
    assert.deepEqual(await spec('kubectl-as-bob'), expected);
    const alice = await new Kubectl(impersonating).run(['create', '-f', writeCsr('kubectl-as-alice')]);
    assert.equal(alice.code, 0, alice.stderr);
    assert.deepEqual(await spec('kubectl-as-alice'), await spec('as-alice'));
  });

  it('names past ASCII travel as client-go sends them, their UTF-8 bytes: kubectl and plat make the same CSR', async () => {
    const flags = ['--as', 'josé', '--as-group', 'team-a', '--as-group', '開発', '--as-uid', 'ü-1'];
    const r = await create('as-jose', ...flags);
    assert.equal(r.code, 0, r.stderr);
    const k = await new Kubectl(impersonating).run(['create', '-f', writeCsr('kubectl-as-jose'), ...flags]);
    assert.equal(k.code, 0, k.stderr);
    const expected = { username: 'josé', groups: ['team-a', '開発', 'system:authenticated'], extra: { 'example.com/scopes': ['view', 'edit'], 'ünïcode key%': ['v'] }, uid: 'ü-1' };
    assert.deepEqual(await spec('kubectl-as-jose'), expected);
    assert.deepEqual(await spec('as-jose'), expected);
  });

  it('a user without the right: kubectl\'s Forbidden text, for plat csr, plat token and plat auth can-i alike', async () => {
    const list = await runPlatAsync(['csr', 'list', '--kubeconfig', plat.kubeconfig, '--as', 'nobody'], NO_ENV);
    const forbidden = 'Error from server (Forbidden): certificatesigningrequests.certificates.platform is forbidden: User "nobody" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope';
    assert.deepEqual([list.code, list.stdout, list.stderr], [1, '', `plat csr list: ${forbidden}\n`]);
    const k = await new Kubectl(plat.kubeconfig).run(['get', 'certificatesigningrequests.certificates.platform', '--as', 'nobody']);
    assert.equal(k.stderr, `${forbidden}\n`);

    // alice (the file's) may create CSRs but not Secrets.
    const token = await runPlatAsync(['token', 'create', '--kubeconfig', impersonating], NO_ENV);
    assert.equal(token.code, 1, token.stderr);
    assert.match(token.stderr, /^plat token create: Error from server \(Forbidden\): secrets is forbidden: User "alice" cannot create resource "secrets" in API group "" in the namespace "plat-system"\n$/);

    const canI = (...args: string[]) => runPlatAsync(['auth', 'can-i', 'create', 'certificatesigningrequests.certificates.platform', '--kubeconfig', impersonating, ...args], NO_ENV);
    const yes = await canI();
    assert.deepEqual([yes.code, yes.stdout], [0, 'yes\n'], yes.stderr);
    // --as replaces the user alone: nobody, still in the file's team-a, may; without the group not.
    const stillGrouped = await canI('--as', 'nobody');
    assert.deepEqual([stillGrouped.code, stillGrouped.stdout], [0, 'yes\n'], stillGrouped.stderr);
    const no = await canI('--as', 'nobody', '--as-group', 'team-b');
    assert.deepEqual([no.code, no.stdout], [1, 'no\n'], no.stderr);
  });
});
