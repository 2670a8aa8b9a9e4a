// The namespace controller end to end against a real plat (its own namespace controller off, this
// one run with no deletion grace period so the test does not wait 5 s per event): deleting a
// namespace deletes what is in it, ServiceAccounts (whose tokens then stop authenticating),
// Secrets, Roles, RoleBindings and Leases, then the namespace; the name made again is empty; an
// object a finalizer holds keeps the namespace Terminating with upstream's conditions until the
// finalizer goes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { namespaceControllerPlugin } from '../../plugins/namespace/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';
import type { Plugin } from '../../core/plugin.js';

const NS = '/api/v1/namespaces';
const MERGE = 'application/merge-patch+json';
const RBAC = '/apis/rbac.authorization.platform/v1';
const LEASES = (ns: string) => `/apis/coordination.platform/v1/namespaces/${ns}/leases`;
const SELF_REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';

/** The Accept header of each GET of a collection, by path (the deleter lists through the metadata client). */
const accepts: { path: string; accept: string }[] = [];
const AcceptsSeen: Plugin = {
  name: 'AcceptsForTests',
  apply(host) {
    host.hooks.authenticate.tap({ name: 'AcceptsForTests', stage: -Infinity }, (req) => {
      if (req.method === 'GET') accepts.push({ path: req.path, accept: String(req.headers['accept'] ?? '') });
      return undefined;
    });
  },
};

describe('namespace controller', () => {
  let plat: RunningPlat;
  let h: Harness<any>;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='], plugins: [AcceptsSeen] });
    h = runController(plat, namespaceControllerPlugin({ deletionGracePeriodMs: 0 }), 'namespace-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const post = async (p: string, body: unknown) => {
    const r = await plat.admin.post(p, body);
    assert.equal(r.status, 201, `${p}: ${r.text}`);
    return r.json;
  };
  const contents = (ns: string) => [
    `${NS}/${ns}/serviceaccounts`, `${NS}/${ns}/secrets`, `${RBAC}/namespaces/${ns}/roles`, `${RBAC}/namespaces/${ns}/rolebindings`, LEASES(ns),
  ];
  const itemsIn = async (ns: string) => {
    const names: string[] = [];
    for (const p of contents(ns)) {
      const r = await plat.admin.get(p);
      assert.equal(r.status, 200, r.text);
      names.push(...r.json.items.map((i: any) => `${p.split('/').pop()}/${i.metadata.name}`));
    }
    return names;
  };

  it('deletes everything in a deleted namespace, then the namespace; its SA tokens stop working; the name made again is empty', async () => {
    await post(NS, { metadata: { name: 'team' } });
    await post(`${NS}/team/serviceaccounts`, { metadata: { name: 'bot' } });
    await post(`${NS}/team/secrets`, { metadata: { name: 's' }, stringData: { a: 'b' } });
    await post(`${RBAC}/namespaces/team/roles`, { metadata: { name: 'r' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }] });
    await post(`${RBAC}/namespaces/team/rolebindings`, {
      metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'team' }],
    });
    await post(LEASES('team'), { metadata: { name: 'l' }, spec: { holderIdentity: 'x' } });
    assert.equal((await itemsIn('team')).length, 5);
    accepts.length = 0;
    const token = (await post(`${NS}/team/serviceaccounts/bot/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} })).status.token;
    const bot = plat.admin.with({ token });
    const before = await bot.post(SELF_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(before.status, 201, before.text);
    assert.equal(before.json.status.userInfo.username, 'system:serviceaccount:team:bot');

    const d = await plat.admin.delete(`${NS}/team`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.status.phase, 'Terminating');
    await until(async () => (await plat.admin.get(`${NS}/team`)).status === 404, 'namespace team to be gone');
    // Its lists of what is left were metadata lists, as upstream's deleter's (names and finalizers are all it reads).
    const secretLists = accepts.filter((a) => a.path === `${NS}/team/secrets`);
    assert.ok(secretLists.length > 0 && secretLists.every((a) => a.accept.startsWith('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1')), JSON.stringify(secretLists));
    assert.deepEqual(await itemsIn('team'), []);
    assert.ok(h.logged('Namespace has been deleted', 'team') || h.logged('Finished syncing namespace', 'team'));

    const after = await bot.post(SELF_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(after.status, 401, `the token of a deleted ServiceAccount: ${after.text}`);

    await post(NS, { metadata: { name: 'team' } });
    assert.deepEqual(await itemsIn('team'), [], 'nothing of the old namespace comes back');
    assert.equal((await plat.admin.get(`${NS}/team/secrets/s`)).status, 404);
    const again = await bot.post(SELF_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(again.status, 401, 'nor does its account');
  });

  it('an object a finalizer holds keeps the namespace Terminating with NamespaceFinalizersRemaining until the finalizer goes', async () => {
    await post(NS, { metadata: { name: 'held' } });
    await post(`${NS}/held/secrets`, { metadata: { name: 'keep', finalizers: ['example.com/x'] } });
    await post(`${NS}/held/secrets`, { metadata: { name: 'plain' } });
    assert.equal((await plat.admin.delete(`${NS}/held`)).status, 200);
    const conditions = await until(async () => {
      const ns = (await plat.admin.get(`${NS}/held`)).json;
      const byType = Object.fromEntries((ns.status.conditions ?? []).map((c: any) => [c.type, c]));
      return byType['NamespaceFinalizersRemaining']?.status === 'True' ? { ns, byType } : undefined;
    }, 'the conditions of namespace held');
    const { ns, byType } = conditions;
    assert.equal(ns.status.phase, 'Terminating');
    assert.deepEqual(ns.spec.finalizers, ['platform']);
    assert.deepEqual(ns.status.conditions.map((c: any) => c.type), [
      'NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining', 'NamespaceFinalizersRemaining',
    ]);
    const pick = (c: any) => [c.status, c.reason, c.message];
    assert.deepEqual(pick(byType['NamespaceDeletionDiscoveryFailure']), ['False', 'ResourcesDiscovered', 'All resources successfully discovered']);
    assert.deepEqual(pick(byType['NamespaceDeletionGroupVersionParsingFailure']), ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed']);
    assert.deepEqual(pick(byType['NamespaceDeletionContentFailure']), ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization']);
    assert.deepEqual(pick(byType['NamespaceContentRemaining']), ['True', 'SomeResourcesRemain', 'Some resources are remaining: secrets. has 1 resource instances']);
    assert.deepEqual(pick(byType['NamespaceFinalizersRemaining']), ['True', 'SomeFinalizerRemain', 'Some finalizers are remaining: example.com/x in 1 resource instances']);
    assert.equal((await plat.admin.get(`${NS}/held/secrets/plain`)).status, 404, 'what nothing holds is gone');
    const kept = await plat.admin.get(`${NS}/held/secrets/keep`);
    assert.ok(kept.json.metadata.deletionTimestamp, 'the held one is being deleted');
    await until(async () => h.logged('Content remaining in namespace', 'held', 'waitSeconds=8'), 'the requeue after half the 15 s estimate');

    const unheld = await plat.admin.patch(`${NS}/held/secrets/keep`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(unheld.status, 200, unheld.text);
    // Rather than wait the 8 s, an event on the namespace queues it again at once (no grace period here).
    assert.equal((await plat.admin.patch(`${NS}/held`, { metadata: { labels: { poke: 'now' } } }, MERGE)).status, 200);
    await until(async () => (await plat.admin.get(`${NS}/held`)).status === 404, 'namespace held to be gone');
  });
});
