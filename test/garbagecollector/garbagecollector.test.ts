// The garbage collector against a real plat (the profile's controllers off, this one run on its
// own): a Secret owned by a ServiceAccount goes when the account goes (background); a foreground
// delete keeps the owner until its blocking dependent is gone, and goes down a chain of owners; an
// orphan delete keeps the dependent without the reference; a reference with a stale uid or to an
// owner in another namespace counts as absent; a dependent with a live owner loses only its
// dangling reference; a Node's Lease goes with the Node; a cluster-scoped object naming a
// namespaced owner is left alone; an owner in another namespace is reported with an
// OwnerRefInvalidNamespace Event. Then the plugin's flags.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Flags } from '../../core/flags/flag-set.js';
import { Host } from '../../core/host.js';
import { MapRegistry, type ControllerContext, type Runnable } from '../../core/lifecycle.js';
import { GarbageCollectorController } from '../../plugins/garbagecollector/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const NS = '/api/v1/namespaces/default';
const SA = `${NS}/serviceaccounts`;
const SECRETS = `${NS}/secrets`;
const LEASES = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases';

describe('garbage collector', () => {
  let plat: RunningPlat;
  let h: Harness<any>;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    h = runController(plat, GarbageCollectorController, 'garbage-collector-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const create = async (path: string, body: Record<string, any>) => {
    const r = await plat.admin.post(path, body);
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const account = (name: string) => create(SA, { metadata: { name } });
  const ownedBy = (owner: any, extra: Record<string, unknown> = {}) =>
    ({ apiVersion: 'v1', kind: owner.kind ?? 'ServiceAccount', name: owner.metadata.name, uid: owner.metadata.uid, ...extra });
  const secret = (name: string, owners: unknown[], extra: Record<string, unknown> = {}) =>
    create(SECRETS, { metadata: { name, ownerReferences: owners, ...extra } });
  const gone = (path: string) => async () => (await plat.admin.get(path)).status === 404;

  it('deletes a dependent in the background once its owner is deleted', async () => {
    const owner = await account('owner-bg');
    const dep = await secret('dep-bg', [ownedBy(owner)]);
    assert.equal((await plat.admin.delete(`${SA}/owner-bg`)).status, 200);
    await until(gone(`${SECRETS}/dep-bg`), 'dep-bg deleted');
    assert.ok(h.logged('Deleting item', `uid: ${dep.metadata.uid}]`, 'propagationPolicy="Background"'), h.lines.filter((l: string) => l.includes('dep-bg')).join('\n'));
  });

  it('keeps a foreground-deleted owner until its blocking dependent is gone', async () => {
    const owner = await account('owner-fg');
    await secret('dep-fg', [ownedBy(owner, { blockOwnerDeletion: true })], { finalizers: ['example.com/hold'] });
    const d = await plat.admin.request('DELETE', `${SA}/owner-fg?propagationPolicy=Foreground`);
    assert.equal(d.status, 200, d.text);
    assert.deepEqual(d.json.metadata.finalizers, ['foregroundDeletion']);
    // The collector deletes the dependent, which its own finalizer holds: the owner waits.
    await until(async () => !!(await plat.admin.get(`${SECRETS}/dep-fg`)).json.metadata.deletionTimestamp, 'dep-fg being deleted');
    const waiting = await plat.admin.get(`${SA}/owner-fg`);
    assert.equal(waiting.status, 200);
    assert.deepEqual(waiting.json.metadata.finalizers, ['foregroundDeletion']);
    const r = await plat.admin.patch(`${SECRETS}/dep-fg`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    assert.equal(r.status, 200, r.text);
    await until(gone(`${SECRETS}/dep-fg`), 'dep-fg deleted');
    await until(gone(`${SA}/owner-fg`), 'owner-fg deleted once its dependent is gone');
    assert.ok(h.logged('remove DeleteDependents finalizer for item', 'name: owner-fg'));
  });

  it('deletes a chain in the foreground: a dependent with dependents of its own is deleted in the foreground too', async () => {
    const owner = await account('owner-chain');
    const middle = { kind: 'Secret', ...(await secret('mid-chain', [ownedBy(owner, { blockOwnerDeletion: true })])) };
    await secret('leaf-chain', [ownedBy(middle, { blockOwnerDeletion: true })]);
    // The collector's graph is built from the shared informers: once their cache has the leaf, so has the graph.
    await until(async () => h.informers.for({ group: '', version: 'v1', plural: 'secrets' }).get('default/leaf-chain'), 'the leaf in the graph');
    assert.equal((await plat.admin.request('DELETE', `${SA}/owner-chain?propagationPolicy=Foreground`)).status, 200);
    for (const path of [`${SECRETS}/leaf-chain`, `${SECRETS}/mid-chain`, `${SA}/owner-chain`]) await until(gone(path), `${path} deleted`);
    assert.ok(h.logged('at least one owner of item has FinalizerDeletingDependents, and the item itself has dependents, so it is going to be deleted in Foreground', 'name: mid-chain'));
  });

  it('orphans: the dependent stays without its reference, the owner goes', async () => {
    const owner = await account('owner-or');
    const other = await account('other-or');
    await secret('dep-or', [ownedBy(owner), ownedBy(other)]);
    assert.equal((await plat.admin.request('DELETE', `${SA}/owner-or?propagationPolicy=Orphan`)).status, 200);
    await until(gone(`${SA}/owner-or`), 'owner-or deleted after orphaning');
    const dep = await plat.admin.get(`${SECRETS}/dep-or`);
    assert.equal(dep.status, 200);
    assert.deepEqual(dep.json.metadata.ownerReferences, [ownedBy(other)]);
  });

  it('deletes a dependent whose owner reference has a stale uid, or names an owner in another namespace', async () => {
    await account('owner-uid');
    const stale = { apiVersion: 'v1', kind: 'ServiceAccount', name: 'owner-uid', uid: randomUUID() };
    await secret('dep-uid', [stale]);
    await until(gone(`${SECRETS}/dep-uid`), 'dep-uid deleted');
    assert.equal((await plat.admin.get(`${SA}/owner-uid`)).status, 200, 'the account of that name stays');

    // A namespaced owner is looked for in the dependent's namespace only.
    const elsewhere = await create('/api/v1/namespaces/plat-system/serviceaccounts', { metadata: { name: 'owner-ns' } });
    await secret('dep-ns', [ownedBy(elsewhere)]);
    await until(gone(`${SECRETS}/dep-ns`), 'dep-ns deleted');
    assert.equal((await plat.admin.get('/api/v1/namespaces/plat-system/serviceaccounts/owner-ns')).status, 200);
    // reportInvalidNamespaceOwnerRef: a Warning Event on the dependent.
    const selector = encodeURIComponent('involvedObject.name=dep-ns,reason=OwnerRefInvalidNamespace');
    let event: any;
    await until(async () => { event = (await plat.admin.get(`${NS}/events?fieldSelector=${selector}`)).json.items[0]; return event !== undefined; }, 'the OwnerRefInvalidNamespace Event');
    assert.equal(event.type, 'Warning');
    assert.deepEqual(event.source, { component: 'garbage-collector-controller' });
    assert.equal(event.message, `ownerRef [v1/ServiceAccount, namespace: default, name: owner-ns, uid: ${elsewhere.metadata.uid}] does not exist in namespace "default"`);
  });

  it('removes only the dangling reference of a dependent that has a live owner', async () => {
    const live = await account('owner-live');
    const ghost = { apiVersion: 'v1', kind: 'ServiceAccount', name: 'owner-ghost', uid: randomUUID() };
    await secret('dep-two', [ghost, ownedBy(live)]);
    await until(async () => {
      const r = await plat.admin.get(`${SECRETS}/dep-two`);
      return r.status === 200 && r.json.metadata.ownerReferences?.length === 1;
    }, 'the dangling reference removed');
    assert.deepEqual((await plat.admin.get(`${SECRETS}/dep-two`)).json.metadata.ownerReferences, [ownedBy(live)]);
  });

  it('deletes a Node\'s Lease with the Node', async () => {
    const node = { kind: 'Node', ...(await create('/api/v1/nodes', { metadata: { name: 'gc-node' } })) };
    await create(LEASES, { metadata: { name: 'gc-node', ownerReferences: [ownedBy(node)] }, spec: { holderIdentity: 'gc-node', leaseDurationSeconds: 40 } });
    assert.equal((await plat.admin.delete('/api/v1/nodes/gc-node')).status, 200);
    await until(gone(`${LEASES}/gc-node`), 'the node\'s lease deleted');
  });

  it('leaves a cluster-scoped object that names a namespaced owner', async () => {
    const owner = await account('owner-cluster');
    await create('/api/v1/nodes', { metadata: { name: 'gc-odd', ownerReferences: [ownedBy(owner)] } });
    await until(async () => h.logged('item is cluster-scoped, but refers to a namespaced owner', 'name: gc-odd'), 'the invalid reference seen');
    assert.equal((await plat.admin.get('/api/v1/nodes/gc-odd')).status, 200);
  });
});

describe('garbage collector flags', () => {
  /** The controller the plugin's factory makes with `argv` (undefined: not started). */
  const built = (argv: string[]) => {
    const host = new Host({ role: 'controller-manager' });
    GarbageCollectorController.apply(host, undefined);
    const flags = new Flags();
    host.hooks.flags.call(flags);
    flags.parse(argv);
    const registry = new MapRegistry<(ctx: ControllerContext) => Runnable | undefined>();
    host.hooks.controllers.call(registry);
    assert.deepEqual([registry.clientName('garbage-collector-controller'), registry.aliasesOf('garbage-collector-controller')], ['generic-garbage-collector', ['garbagecollector']]);
    return registry.get('garbage-collector-controller')!({ flags } as unknown as ControllerContext);
  };

  it('--enable-garbage-collector=false leaves the controller out; --concurrent-gc-syncs must not be negative', () => {
    assert.equal(built(['--enable-garbage-collector=false']), undefined);
    assert.throws(() => built(['--concurrent-gc-syncs=-1']), /must not be negative/);
  });
});
