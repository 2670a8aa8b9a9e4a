// The controller manager's --platconfig may impersonate (a user's `as`), as kube-controller-manager's
// kubeconfig may: it starts, and its clients (leader election's among them) act as that user. Here
// the admin impersonates a user with no rights under RBAC, so the Lease is refused in that user's
// name, and granted once the user may hold it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify } from 'yaml';
import { freePort, tempDir } from '../helpers/plat.js';
import { CLUSTER_ROLE_BINDINGS, clusterRoleBinding, created, startRbac, user, type RbacPlat } from '../rbac/support.js';
import { startControllerManager, until, type RunningControllerManager } from './support.js';

const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';

describe('controller manager with a --platconfig that impersonates', () => {
  let plat: RbacPlat;
  let cm: RunningControllerManager | undefined;
  let conf: string;

  before(async () => {
    plat = await startRbac([{ name: 'nobody' }], { args: ['--controllers='] });
    const doc = parseYaml(readFileSync(plat.kubeconfig, 'utf8'));
    for (const u of doc.users) Object.assign(u.user, { as: 'cm-operator' });
    conf = path.join(tempDir(), 'cm.conf');
    writeFileSync(conf, stringify(doc));
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  it('starts, and asks for its Lease as the impersonated user', async () => {
    cm = await startControllerManager(['--platconfig', conf, '--controllers=', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--leader-elect-retry-period=1s']);
    await until(async () => cm!.logs.some((l) => l.includes('error retrieving resource lock plat-system/plat-controller-manager: leases.coordination.platform "plat-controller-manager" is forbidden: User "cm-operator" cannot get resource "leases"')),
      'the Lease refused to cm-operator');
    assert.equal((await plat.admin.get(LEASE)).status, 404);
    // The controller manager's own bootstrap role, given to the impersonated user: the Lease is taken.
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('cm-operator-is-cm', 'system:kube-controller-manager', [user('cm-operator')]));
    await until(async () => (await plat.admin.get(LEASE)).json?.spec?.holderIdentity, 'the Lease held');
  });
});
