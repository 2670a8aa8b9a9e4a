// The namespace REST's deletion lifecycle as upstream's pkg/registry/core/namespace/storage: the
// first DELETE only marks the namespace (deletionTimestamp, Terminating, the propagation's orphan
// or foregroundDeletion finalizer) and answers it; later ones answer it unchanged while
// spec.finalizers hold it, and delete it once they are empty; PUT namespaces/{name}/finalize
// (update only, ValidateNamespaceFinalizeUpdate, RBAC `update` on `namespaces/finalize`) deletes it
// when it leaves both finalizer lists empty. No controllers run here (`--controllers=`), as with
// `plat apiserver` alone: a deleted namespace stays Terminating.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterRole, clusterRoleBinding, created, rule, startRbac, user, type RbacPlat } from '../rbac/support.js';

const NS = '/api/v1/namespaces';
const MERGE = 'application/merge-patch+json';

describe('namespace REST deletion and namespaces/finalize, as kube-apiserver 1.32', () => {
  let plat: RbacPlat;
  before(async () => {
    plat = await startRbac([{ name: 'updater' }, { name: 'finalizer' }], { args: ['--controllers='] });
    await created(plat.admin, '/apis/rbac.authorization.platform/v1/clusterroles', clusterRole('ns-update', [rule(['get', 'update'], [''], ['namespaces'])]));
    await created(plat.admin, '/apis/rbac.authorization.platform/v1/clusterroles', clusterRole('ns-finalize', [rule(['update'], [''], ['namespaces/finalize'])]));
    await created(plat.admin, '/apis/rbac.authorization.platform/v1/clusterrolebindings', clusterRoleBinding('ns-update', 'ns-update', [user('updater'), user('finalizer')]));
    await created(plat.admin, '/apis/rbac.authorization.platform/v1/clusterrolebindings', clusterRoleBinding('ns-finalize', 'ns-finalize', [user('finalizer')]));
  });
  after(async () => { await plat?.stop(); });

  const make = async (name: string, extra: Record<string, unknown> = {}) => {
    const r = await plat.admin.post(NS, { metadata: { name, ...extra } });
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const finalize = (name: string, ns: any, finalizers: string[], client = plat.admin) =>
    client.put(`${NS}/${name}/finalize`, { ...ns, spec: { finalizers } });

  it('the first delete marks it Terminating and answers it; a second one answers it unchanged while spec.finalizers hold it', async () => {
    const ns = await make('first');
    const d = await plat.admin.delete(`${NS}/first`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.kind, 'Namespace');
    assert.ok(d.json.metadata.deletionTimestamp);
    assert.equal(d.json.metadata.deletionGracePeriodSeconds, undefined, 'REST.Delete sets the timestamp alone');
    assert.equal(d.json.status.phase, 'Terminating');
    assert.deepEqual(d.json.spec.finalizers, ['platform']);
    assert.notEqual(d.json.metadata.resourceVersion, ns.metadata.resourceVersion);
    const again = await plat.admin.delete(`${NS}/first`);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json, d.json, 'answered as stored, nothing written');
    const got = await plat.admin.get(`${NS}/first`);
    assert.equal(got.json.status.phase, 'Terminating', 'nobody empties it without a namespace controller');
  });

  it('finalize is update only: discovery, and 405 for GET and PATCH', async () => {
    const v1 = await plat.admin.get('/api/v1');
    assert.deepEqual(v1.json.resources.find((r: any) => r.name === 'namespaces/finalize'), { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] });
    await make('verbs');
    assert.equal((await plat.admin.get(`${NS}/verbs/finalize`)).status, 405);
    assert.equal((await plat.admin.patch(`${NS}/verbs/finalize`, { spec: { finalizers: [] } }, MERGE)).status, 405);
  });

  it('finalize: ValidateNamespaceFinalizeUpdate names each spec finalizer by its index; the status is kept', async () => {
    const ns = await make('validate');
    const bad = await finalize('validate', ns, ['platform', 'foo']);
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.json.message, 'Namespace "validate" is invalid: spec.finalizers[1]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified');
    const ok = await plat.admin.put(`${NS}/validate/finalize`, { ...ns, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json.spec.finalizers, ['example.com/x']);
    assert.equal(ok.json.status.phase, 'Active');
    // A plain update keeps spec.finalizers as stored.
    const plain = await plat.admin.put(`${NS}/validate`, { ...ok.json, spec: { finalizers: [] } });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(plain.json.spec.finalizers, ['example.com/x']);
  });

  it('finalizing a Terminating namespace empty deletes it, answering the object the update made', async () => {
    await make('done');
    const d = await plat.admin.delete(`${NS}/done`);
    const f = await finalize('done', d.json, []);
    assert.equal(f.status, 200, f.text);
    assert.equal(f.json.metadata.name, 'done');
    assert.equal(f.json.spec.finalizers, undefined);
    assert.equal((await plat.admin.get(`${NS}/done`)).status, 404);
  });

  it('metadata.finalizers hold it after finalize; taking the last one off deletes it', async () => {
    await make('held', { finalizers: ['example.com/hold'] });
    const d = await plat.admin.delete(`${NS}/held`);
    assert.equal(d.status, 200, d.text);
    const f = await finalize('held', d.json, []);
    assert.equal(f.status, 200, f.text);
    assert.equal((await plat.admin.get(`${NS}/held`)).json.status.phase, 'Terminating');
    const gone = await plat.admin.patch(`${NS}/held`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(gone.status, 200, gone.text);
    assert.equal((await plat.admin.get(`${NS}/held`)).status, 404);
  });

  it('a metadata finalizer removed while spec.finalizers remain leaves it Terminating', async () => {
    await make('spec-held', { finalizers: ['example.com/hold'] });
    await plat.admin.delete(`${NS}/spec-held`);
    const p = await plat.admin.patch(`${NS}/spec-held`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(p.status, 200, p.text);
    assert.equal((await plat.admin.get(`${NS}/spec-held`)).json.status.phase, 'Terminating');
  });

  it('a namespace finalized before its delete is marked by the first delete and removed by the second', async () => {
    const ns = await make('second');
    assert.equal((await finalize('second', ns, [])).status, 200);
    const first = await plat.admin.delete(`${NS}/second`);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.status.phase, 'Terminating');
    const second = await plat.admin.delete(`${NS}/second`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json.metadata.name, 'second');
    assert.equal((await plat.admin.get(`${NS}/second`)).status, 404);
  });

  it('the propagation policy settles the orphan and foregroundDeletion finalizers; orphanDependents=false is 202', async () => {
    await make('orphan');
    const o = await plat.admin.delete(`${NS}/orphan?propagationPolicy=Orphan`);
    assert.equal(o.status, 200, o.text);
    assert.deepEqual(o.json.metadata.finalizers, ['orphan']);
    await make('fg', { finalizers: ['orphan'] });
    const f = await plat.admin.delete(`${NS}/fg`, { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: false });
    assert.equal(f.status, 202, f.text);
    assert.deepEqual(f.json.metadata.finalizers, ['foregroundDeletion']);
    await make('bg', { finalizers: ['orphan'] });
    const b = await plat.admin.delete(`${NS}/bg?propagationPolicy=Background`);
    assert.equal(b.status, 200, b.text);
    assert.equal(b.json.metadata.finalizers, undefined);
  });

  it('a dry-run delete answers the marked namespace and stores nothing; preconditions are checked first', async () => {
    const ns = await make('dry');
    const d = await plat.admin.delete(`${NS}/dry?dryRun=All`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.status.phase, 'Terminating');
    assert.equal((await plat.admin.get(`${NS}/dry`)).json.status.phase, 'Active');
    const c = await plat.admin.delete(`${NS}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'nope' } });
    assert.equal(c.status, 409, c.text);
    assert.equal(c.json.message, `Operation cannot be fulfilled on namespaces "dry": Precondition failed: UID in precondition: nope, UID in object meta: ${ns.metadata.uid}`);
  });

  it('RBAC: finalize is `update` on `namespaces/finalize`', async () => {
    const ns = await make('rbac');
    const refused = await finalize('rbac', ns, [], plat.as('updater'));
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.message, 'namespaces "rbac" is forbidden: User "updater" cannot update resource "namespaces/finalize" in API group "" in the namespace "rbac"', 'as upstream: RequestInfo takes the namespace from the path');
    const allowed = await finalize('rbac', ns, [], plat.as('finalizer'));
    assert.equal(allowed.status, 200, allowed.text);
  });
});
