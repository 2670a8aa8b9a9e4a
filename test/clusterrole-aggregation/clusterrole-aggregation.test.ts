// The ClusterRole aggregation controller against a real plat under --authorization-mode=RBAC (the
// profile's controllers off, this one run on its own): an aggregating role gets the union of the
// matching roles' rules in name order, each once, follows their changes, labels and deletions, and
// a user bound to it may do what those rules allow. The bootstrap admin, edit and view fill up too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { ClusterRoleAggregationController } from '../../plugins/clusterrole-aggregation/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { until } from '../controller-manager/support.js';
import { CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, clusterRole, clusterRoleBinding, created, namespace, rule, SECRETS, startRbac, user, type RbacPlat } from '../rbac/support.js';

const LABEL = 'example.com/aggregate-to-ops';
const READ_SECRETS = rule(['get', 'list'], [''], ['secrets']);
const READ_SAS = rule(['get', 'list'], [''], ['serviceaccounts']);
const READ_NS = rule(['get'], [''], ['namespaces']);
const WRITE_SECRETS = rule(['create'], [''], ['secrets']);

describe('clusterrole aggregation controller', () => {
  let plat: RbacPlat;
  let h: Harness<any>;
  before(async () => {
    plat = await startRbac([{ name: 'alice' }], { args: ['--controllers='] });
    h = runController(plat, ClusterRoleAggregationController, 'clusterrole-aggregation-controller');
    await namespace(plat, 'team');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const rulesOf = async (name: string) => (await plat.admin.get(`${CLUSTER_ROLES}/${name}`)).json.rules ?? [];
  const rulesBecome = (name: string, rules: unknown[], what: string) =>
    until(async () => isDeepStrictEqual(await rulesOf(name), rules), `${what}: ${name} has ${JSON.stringify(rules)}`);
  // The controller may write the role between our read and our write: read again, as a client does.
  const put = async (name: string, change: (r: any) => void) => {
    for (let attempt = 0; ; attempt++) {
      const r = (await plat.admin.get(`${CLUSTER_ROLES}/${name}`)).json;
      change(r);
      const res = await plat.admin.put(`${CLUSTER_ROLES}/${name}`, r);
      if (res.status === 409 && attempt < 10) continue;
      assert.equal(res.status, 200, res.text);
      return;
    }
  };

  it('fills an aggregating role with the matching roles\' rules, follows their changes, and grants them', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('ops', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] } }));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('alice-ops', 'ops', [user('alice')]));
    const alice = plat.as('alice');
    assert.equal((await alice.get(SECRETS('team'))).status, 403, 'nothing aggregated yet');

    // Name order (a-, then b-), each rule once; the role itself is left out though it matches.
    await created(plat.admin, CLUSTER_ROLES, clusterRole('b-secrets', [READ_NS, READ_SECRETS], { metadata: { name: 'b-secrets', labels: { [LABEL]: 'true' } } }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('a-accounts', [READ_SAS, READ_NS], { metadata: { name: 'a-accounts', labels: { [LABEL]: 'true' } } }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('unlabelled', [WRITE_SECRETS]));
    await put('ops', (r) => { r.metadata.labels = { [LABEL]: 'true' }; });
    await rulesBecome('ops', [READ_SAS, READ_NS, READ_SECRETS], 'aggregated');
    const ops = (await plat.admin.get(`${CLUSTER_ROLES}/ops`)).json;
    assert.ok(ops.metadata.managedFields.some((m: any) => m.manager === 'clusterrole-aggregation-controller' && m.operation === 'Apply'
      && Object.keys(m.fieldsV1).includes('f:rules')), JSON.stringify(ops.metadata.managedFields));
    assert.equal((await alice.get(SECRETS('team'))).status, 200, 'a rule aggregated from b-secrets');
    assert.equal((await alice.post(SECRETS('team'), { metadata: { name: 's' } })).status, 403);

    // A change of a matching role's rules, a new label, a label taken off, a deletion.
    await put('b-secrets', (r) => { r.rules = [READ_SECRETS, WRITE_SECRETS]; });
    await rulesBecome('ops', [READ_SAS, READ_NS, READ_SECRETS, WRITE_SECRETS], 'a matching role changed');
    assert.equal((await alice.post(SECRETS('team'), { metadata: { name: 's' } })).status, 201);
    await put('unlabelled', (r) => { r.metadata.labels = { [LABEL]: 'true' }; r.rules = [rule(['delete'], [''], ['secrets'])]; });
    await rulesBecome('ops', [READ_SAS, READ_NS, READ_SECRETS, WRITE_SECRETS, rule(['delete'], [''], ['secrets'])], 'a role labelled');
    await put('b-secrets', (r) => { delete r.metadata.labels[LABEL]; });
    await rulesBecome('ops', [READ_SAS, READ_NS, rule(['delete'], [''], ['secrets'])], 'a role unlabelled');
    assert.equal((await alice.get(SECRETS('team'))).status, 403, 'the rule went with the label');
    assert.equal((await plat.admin.delete(`${CLUSTER_ROLES}/unlabelled`)).status, 200);
    await rulesBecome('ops', [READ_SAS, READ_NS], 'a role deleted');
    assert.equal((await plat.admin.delete(`${CLUSTER_ROLES}/a-accounts`)).status, 200);
    await rulesBecome('ops', [], 'the last one deleted');
    assert.ok(!h.logged('Unhandled Error'), h.lines.join('\n'));
  });

  it('takes the selectors in turn, and a rule written into an aggregated role by hand is replaced', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('z-first', [READ_NS], { metadata: { name: 'z-first', labels: { tier: 'one' } } }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('a-second', [READ_SAS], { metadata: { name: 'a-second', labels: { tier: 'two' } } }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('tiers', [WRITE_SECRETS], {
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { tier: 'one' } }, { matchExpressions: [{ key: 'tier', operator: 'In', values: ['two', 'one'] }] }] },
    }));
    await rulesBecome('tiers', [READ_NS, READ_SAS], 'two selectors');
    await put('tiers', (r) => { r.rules = [WRITE_SECRETS]; });
    await rulesBecome('tiers', [READ_NS, READ_SAS], 'the controller\'s rules back');
  });

  it('two roles that aggregate each other settle: the same rules in another order are not written again', async () => {
    // The tester's case: cyc-a takes cyc-b and the `a` roles, cyc-b the `a` and `c` roles. Upstream
    // compares in order, and here the two syncs, run together from one cache, swapped the order of
    // the same two rules in each other for ever.
    const selectors = (...values: string[]) => ({ aggregationRule: { clusterRoleSelectors: values.map((v) => ({ matchLabels: { cyc: v } })) } });
    await created(plat.admin, CLUSTER_ROLES, clusterRole('cyc-a', [], { metadata: { name: 'cyc-a', labels: { cyc: 'a' } }, ...selectors('b', 'a') }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('cyc-b', [], { metadata: { name: 'cyc-b', labels: { cyc: 'b' } }, ...selectors('a', 'c') }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('cyc-c', [READ_NS], { metadata: { name: 'cyc-c', labels: { cyc: 'c' } } }));
    await created(plat.admin, CLUSTER_ROLES, clusterRole('cyc-d', [READ_SAS], { metadata: { name: 'cyc-d', labels: { cyc: 'a' } } }));
    const settled = async () => {
      const [a, b] = [await rulesOf('cyc-a'), await rulesOf('cyc-b')];
      return a.length === 2 && b.length === 2;
    };
    await until(settled, 'cyc-a and cyc-b hold both rules');
    const versions = async () => Promise.all(['cyc-a', 'cyc-b'].map(async (n) => (await plat.admin.get(`${CLUSTER_ROLES}/${n}`)).json.metadata.resourceVersion));
    const before = await versions();
    // Rewritten ~20 times a second before; the queue has long been drained after 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.deepEqual(await versions(), before, 'no more writes once both hold every rule');
    for (const n of ['cyc-a', 'cyc-b', 'cyc-c', 'cyc-d']) assert.equal((await plat.admin.delete(`${CLUSTER_ROLES}/${n}`)).status, 200);
  });

  it('fills the bootstrap admin, edit and view: view in edit, edit in admin', async () => {
    const own = async (name: string) => rulesOf(`system:aggregate-to-${name}`);
    const [toView, toEdit, toAdmin] = [await own('view'), await own('edit'), await own('admin')];
    assert.ok(toView.length && toEdit.length && toAdmin.length);
    await rulesBecome('view', toView, 'view');
    // Name order: system:aggregate-to-edit before view, edit before system:aggregate-to-admin.
    await rulesBecome('edit', [...toEdit, ...toView], 'edit');
    await rulesBecome('admin', [...toEdit, ...toView, ...toAdmin], 'admin');
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('alice-view', 'view', [user('alice')]));
    const alice = plat.as('alice');
    assert.equal((await alice.get('/api/v1/namespaces/team/serviceaccounts')).status, 200);
    assert.equal((await alice.get(SECRETS('team'))).status, 403, 'view reads no secrets');
  });
});
