// The aggregated default roles admin, edit and view: made at start-up with upstream's aggregation
// rules and labels, filled by the aggregation controller of `plat all`; the reconciliation at the
// next start leaves the rules the controller wrote as they are (it neither strips them nor brings
// back rules the controller took out), and a user's own `view` from before is carried over into
// system:aggregate-to-view instead of being overwritten.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';
import { CLUSTER_ROLES, clusterRole, created, rule, startRbac, type RbacPlat } from './support.js';

const BOOTSTRAP = { 'platform/bootstrapping': 'rbac-defaults' };
const TO = (role: string) => `rbac.authorization.platform/aggregate-to-${role}`;
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

/** The rules of the roles that aggregate into the defaults: upstream's, for the resources plat serves. */
const TO_VIEW = [
  rule(READ, [''], ['pods', 'serviceaccounts']),
  rule(READ, [''], ['events', 'namespaces/status']),
  rule(READ, [''], ['namespaces']),
];
const TO_EDIT = [
  rule(READ, [''], ['secrets']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods']),
  rule(WRITE, [''], ['secrets', 'serviceaccounts']),
  rule(['create'], [''], ['serviceaccounts/token']),
];
const TO_ADMIN = [
  rule(['create'], ['authorization.platform'], ['localsubjectaccessreviews']),
  rule([...READ, ...WRITE].sort(), ['rbac.authorization.platform'], ['rolebindings', 'roles']),
];
/** What the controller writes: by selector, then name (system:aggregate-to-edit before view, edit before system:aggregate-to-admin). */
const VIEW = TO_VIEW;
const EDIT = [...TO_EDIT, ...TO_VIEW];
const ADMIN = [...EDIT, ...TO_ADMIN];

describe('aggregated default roles', () => {
  const dataDir = tempDir('plat-rbac-aggregated-');
  let plat: RbacPlat | undefined;
  before(async () => { plat = await startRbac([], { dataDir }); });
  after(async () => { await plat?.stop(); rmSync(dataDir, { recursive: true, force: true }); });

  const get = async (name: string) => (await plat!.admin.get(`${CLUSTER_ROLES}/${name}`)).json;
  const rulesOf = async (name: string) => (await get(name)).rules ?? [];
  const rulesBecome = (name: string, rules: unknown[], what: string) =>
    until(async () => isDeepStrictEqual(await rulesOf(name), rules), `${what}: ${name} has ${JSON.stringify(rules)}`);
  const restart = async (args: string[] = []) => { await plat!.stop(); plat = undefined; plat = await startRbac([], { dataDir, args }); };

  it('exist after start-up, labelled to aggregate, and the controller fills them', async () => {
    const selector = (role: string) => ({ clusterRoleSelectors: [{ matchLabels: { [TO(role)]: 'true' } }] });
    for (const [name, labels] of [['admin', BOOTSTRAP], ['edit', { ...BOOTSTRAP, [TO('admin')]: 'true' }], ['view', { ...BOOTSTRAP, [TO('edit')]: 'true' }]] as const) {
      const r = await get(name);
      assert.deepEqual(r.metadata.labels, labels, name);
      assert.deepEqual(r.aggregationRule, selector(name), name);
    }
    for (const [name, rules] of [['view', TO_VIEW], ['edit', TO_EDIT], ['admin', TO_ADMIN]] as const) {
      const r = await get(`system:aggregate-to-${name}`);
      assert.deepEqual(r.metadata.labels, { ...BOOTSTRAP, [TO(name)]: 'true' }, name);
      assert.deepEqual(r.rules, rules, name);
      assert.equal(r.aggregationRule, undefined);
    }
    await rulesBecome('view', VIEW, 'filled');
    await rulesBecome('edit', EDIT, 'filled');
    await rulesBecome('admin', ADMIN, 'filled');
  });

  it('a restart keeps what the controller wrote and does not bring back what it removed', async () => {
    // An extension's role adds to view (and so to edit and admin), then goes away again.
    const extra = rule(['get'], ['example.com'], ['widgets']);
    await created(plat!.admin, CLUSTER_ROLES, clusterRole('widgets-view', [extra], { metadata: { name: 'widgets-view', labels: { [TO('view')]: 'true' } } }));
    await rulesBecome('admin', [...EDIT, extra, ...TO_ADMIN], 'the extension aggregated');
    assert.equal((await plat!.admin.delete(`${CLUSTER_ROLES}/widgets-view`)).status, 200);
    await rulesBecome('admin', ADMIN, 'the extension gone');
    const versions = await Promise.all(['admin', 'edit', 'view'].map(async (n) => (await get(n)).metadata.resourceVersion));

    // Without the controller, what is there after the reconciliation is the reconciliation's doing.
    await restart(['--controllers=']);
    assert.deepEqual(await rulesOf('view'), VIEW);
    assert.deepEqual(await rulesOf('edit'), EDIT);
    assert.deepEqual(await rulesOf('admin'), ADMIN);
    assert.deepEqual(await Promise.all(['admin', 'edit', 'view'].map(async (n) => (await get(n)).metadata.resourceVersion)), versions, 'not written at all');

    // A rule taken out of a role that aggregates comes back there (it is not aggregated itself);
    // the aggregated roles get it again from the controller, not from the reconciliation.
    const toView = await get('system:aggregate-to-view');
    assert.equal((await plat!.admin.put(`${CLUSTER_ROLES}/system:aggregate-to-view`, { ...toView, rules: TO_VIEW.slice(1) })).status, 200);
    await restart(['--controllers=']);
    const restored = await rulesOf('system:aggregate-to-view');
    // Appended broken down, one verb and resource a rule, as upstream's reconciliation appends.
    assert.deepEqual(restored.slice(0, 2), TO_VIEW.slice(1));
    assert.ok(restored.length > 2 && restored.slice(2).every((r: any) => r.verbs.length === 1 && r.resources.length === 1), JSON.stringify(restored));
    assert.deepEqual(await rulesOf('view'), VIEW, 'the reconciliation leaves view to the controller');
    await restart();
    await rulesBecome('view', restored, 'the controller follows system:aggregate-to-view');
  });

  it('a user\'s own view from before the defaults keeps its rules, through system:aggregate-to-view', async () => {
    // As a data directory made before plat had these roles: a plain `view`, no system:aggregate-to-view.
    await restart(['--controllers=']);
    const mine = rule(['get', 'list'], ['coordination.platform'], ['leases']);
    assert.equal((await plat!.admin.delete(`${CLUSTER_ROLES}/system:aggregate-to-view`)).status, 200);
    assert.equal((await plat!.admin.delete(`${CLUSTER_ROLES}/view`)).status, 200);
    await created(plat!.admin, CLUSTER_ROLES, clusterRole('view', [mine], { metadata: { name: 'view', labels: { team: 'ops' } } }));

    await restart();
    const copied = await get('system:aggregate-to-view');
    assert.deepEqual(copied.rules[0], mine, 'the user\'s rules, then the missing defaults');
    assert.ok(copied.rules.length > 1);
    assert.deepEqual(copied.metadata.labels, { team: 'ops', ...BOOTSTRAP, [TO('view')]: 'true' });
    const view = await get('view');
    assert.deepEqual(view.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [TO('view')]: 'true' } }] });
    await rulesBecome('view', copied.rules, 'view aggregates the user\'s rules');
  });
});
