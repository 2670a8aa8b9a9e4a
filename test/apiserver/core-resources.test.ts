// core/v1 Namespaces and Secrets over HTTPS and through the machine's kubectl: discovery under
// /api, stringData merged into data and never stored, type defaulted and immutable, immutable
// Secrets, NamespaceLifecycle's 404 for a missing namespace and its immortal namespaces.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { servedStore } from '../../core/registry/stores.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, startProcess, type RunningPlat } from '../helpers/plat.js';

const NS = '/api/v1/namespaces';
const secrets = (ns: string) => `${NS}/${ns}/secrets`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('core/v1 namespaces and secrets', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('discovery lists v1 under /api with namespaces and secrets', async () => {
    const api = await plat.admin.get('/api');
    assert.deepEqual(api.json.versions, ['v1']);
    const v1 = await plat.admin.get('/api/v1');
    assert.equal(v1.status, 200, v1.text);
    assert.equal(v1.json.groupVersion, 'v1');
    const byName = new Map(v1.json.resources.map((r: any) => [r.name, r]));
    assert.equal((byName.get('namespaces') as any).namespaced, false);
    assert.equal((byName.get('secrets') as any).namespaced, true);
    const agg = await plat.admin.get('/api', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    assert.deepEqual(agg.json.items[0].versions[0].resources.map((r: any) => r.resource), ['events', 'namespaces', 'nodes', 'pods', 'secrets', 'serviceaccounts']);
    const apis = await plat.admin.get('/apis');
    assert.ok(!apis.json.groups.some((g: any) => g.name === ''));
  });

  it('default, plat-system and plat-node-lease exist at start-up', async () => {
    for (const n of ['default', 'plat-system', 'plat-node-lease']) {
      const r = await plat.admin.get(`${NS}/${n}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status.phase, 'Active');
    }
  });

  it('namespaces: create, get, list; names are DNS-1123 labels', async () => {
    const c = await plat.admin.post(NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, status: { phase: 'Terminating' } });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.json.status.phase, 'Active');
    assert.equal(c.json.metadata.namespace, undefined);
    const g = await plat.admin.get(`${NS}/team-a`);
    assert.equal(g.json.metadata.uid, c.json.metadata.uid);
    const l = await plat.admin.get(NS);
    assert.equal(l.json.kind, 'NamespaceList');
    assert.deepEqual(l.json.items.map((i: any) => i.metadata.name).sort(), ['default', 'plat-node-lease', 'plat-system', 'team-a']);
    const bad = await plat.admin.post(NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.json.message, /metadata\.name: Invalid value: "a\.b": a lowercase RFC 1123 label/);
  });

  it('namespaces carry platform/metadata.name = their name, set again on every write (upstream kubernetes.io/metadata.name)', async () => {
    assert.deepEqual((await plat.admin.get(`${NS}/default`)).json.metadata.labels, { 'platform/metadata.name': 'default' });
    const gen = await plat.admin.post(NS, { metadata: { generateName: 'gen-', labels: { team: 'x', 'platform/metadata.name': 'wrong' } } });
    assert.equal(gen.status, 201, gen.text);
    assert.deepEqual(gen.json.metadata.labels, { 'platform/metadata.name': gen.json.metadata.name, team: 'x' });
    const name = gen.json.metadata.name as string;
    const removed = await plat.admin.patch(`${NS}/${name}`, '{"metadata":{"labels":{"platform/metadata.name":null}}}', 'application/merge-patch+json');
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.json.metadata.labels['platform/metadata.name'], name);
    const put = await plat.admin.put(`${NS}/${name}`, { ...removed.json, metadata: { ...removed.json.metadata, labels: { 'platform/metadata.name': 'other' } } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.metadata.labels, { 'platform/metadata.name': name });
    const selected = await plat.admin.get(`${NS}?labelSelector=${encodeURIComponent(`platform/metadata.name=${name}`)}`);
    assert.deepEqual(selected.json.items.map((i: any) => i.metadata.name), [name]);
  });

  it('secrets: create, get, list, field selector; stringData merged and not returned; type defaulted', async () => {
    const c = await plat.admin.post(secrets('team-a'), {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: b64('x') }, stringData: { a: 'y', b: 'z' },
    });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.json.metadata.namespace, 'team-a');
    assert.deepEqual(c.json.data, { a: b64('y'), b: b64('z') });
    assert.equal(c.json.stringData, undefined);
    assert.equal(c.json.type, 'Opaque');
    await plat.admin.post(secrets('team-a'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, type: 'example/x' });
    await plat.admin.post(secrets('default'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    const g = await plat.admin.get(`${secrets('team-a')}/s1`);
    assert.deepEqual(g.json.data, { a: b64('y'), b: b64('z') });
    assert.equal(g.json.stringData, undefined);
    const l = await plat.admin.get(secrets('team-a'));
    assert.equal(l.json.kind, 'SecretList');
    assert.deepEqual(l.json.items.map((i: any) => i.metadata.name), ['s1', 's2']);
    const all = await plat.admin.get('/api/v1/secrets');
    assert.equal(all.json.items.length, 3);
    const sel = await plat.admin.get(`${secrets('team-a')}?fieldSelector=metadata.name%3Ds2`);
    assert.deepEqual(sel.json.items.map((i: any) => [i.metadata.name, i.type]), [['s2', 'example/x']]);
    const bad = await plat.admin.post(secrets('team-a'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's3' }, data: { 'a/b': b64('x') } });
    assert.equal(bad.status, 422, bad.text);
  });

  it('a secret data key named __proto__ (a legal key) is stored and answered', async () => {
    const body = JSON.parse(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"proto"},"data":{"__proto__":"${b64('x')}","a":"${b64('y')}"}}`);
    const c = await plat.admin.post(secrets('team-a'), body);
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(Object.keys(c.json.data), ['__proto__', 'a']);
    const g = await plat.admin.get(`${secrets('team-a')}/proto`);
    assert.deepEqual(g.json.data, JSON.parse(`{"__proto__":"${b64('x')}","a":"${b64('y')}"}`));
  });

  it('secrets: stringData merges on update, type is immutable', async () => {
    const cur = (await plat.admin.get(`${secrets('team-a')}/s1`)).json;
    const u = await plat.admin.put(`${secrets('team-a')}/s1`, { ...cur, stringData: { c: 'w' } });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.json.data, { a: b64('y'), b: b64('z'), c: b64('w') });
    assert.equal(u.json.stringData, undefined);
    const t = await plat.admin.put(`${secrets('team-a')}/s1`, { ...u.json, type: 'other' });
    assert.equal(t.status, 422, t.text);
    assert.match(t.json.message, /type: Invalid value: "other": field is immutable/);
  });

  it('immutable secrets refuse data changes', async () => {
    const c = await plat.admin.post(secrets('team-a'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'frozen' }, data: { k: b64('v') }, immutable: true });
    assert.equal(c.status, 201, c.text);
    const d = await plat.admin.put(`${secrets('team-a')}/frozen`, { ...c.json, data: { k: b64('changed') } });
    assert.equal(d.status, 422, d.text);
    assert.match(d.json.message, /data: Forbidden: field is immutable when `immutable` is set/);
    const s = await plat.admin.put(`${secrets('team-a')}/frozen`, { ...c.json, stringData: { k: 'changed' } });
    assert.equal(s.status, 422, s.text);
    const m = await plat.admin.put(`${secrets('team-a')}/frozen`, { ...c.json, metadata: { ...c.json.metadata, labels: { x: 'y' } } });
    assert.equal(m.status, 200, m.text);
    const g = await plat.admin.get(`${secrets('team-a')}/frozen`);
    assert.deepEqual(g.json.data, { k: b64('v') });
  });

  it('a secret in a namespace that does not exist is 404', async () => {
    const r = await plat.admin.post(secrets('nope'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.reason, 'NotFound');
    assert.equal(r.json.message, 'namespaces "nope" not found');
    assert.equal((await plat.admin.get('/api/v1/secrets?fieldSelector=metadata.namespace%3Dnope')).json.items.length, 0);
  });

  it("a store that fails NamespaceLifecycle's namespace lookup is a 500, not a 403 (lifecycle's NewInternalError)", async () => {
    const namespaces = servedStore(plat.host!, '', 'v1', 'namespaces')!;
    const storage = namespaces.storage as { get: (key: string) => Promise<unknown> };
    const key = namespaces.keyFor('', 'default');
    const get = storage.get;
    storage.get = async (k: string) => { if (k === key) throw new Error('MDB_BAD_TXN: Transaction must abort'); return get.call(namespaces.storage, k); };
    try {
      const r = await plat.admin.post(secrets('default'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'lookup-fails' } });
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.reason, 'InternalError');
      assert.equal(r.json.message, 'Internal error occurred: MDB_BAD_TXN: Transaction must abort');
    } finally {
      storage.get = get;
    }
    assert.equal((await plat.admin.get(`${secrets('default')}/lookup-fails`)).status, 404);
  });

  const deletions: { name: string; query?: string; code: number }[] = [
    { name: 'default', code: 403 },
    { name: 'plat-system', code: 403 },
    { name: 'plat-system', query: '?dryRun=All', code: 403 },
    { name: 'plat-public', code: 403 },
    { name: 'plat-node-lease', query: '?dryRun=All', code: 200 },
  ];
  for (const d of deletions) {
    it(`DELETE namespace ${d.name}${d.query ?? ''}: ${d.code}`, async () => {
      if (d.name === 'plat-public') assert.equal((await plat.admin.post(NS, { metadata: { name: d.name } })).status, 201);
      const r = await plat.admin.delete(`${NS}/${d.name}${d.query ?? ''}`);
      assert.equal(r.status, d.code, r.text);
      if (d.code !== 403) return;
      assert.deepEqual(r.json, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: `namespaces "${d.name}" is forbidden: this namespace may not be deleted`,
        reason: 'Forbidden', details: { name: d.name, kind: 'namespaces' }, code: 403,
      });
      assert.equal((await plat.admin.get(`${NS}/${d.name}`)).status, 200);
    });
  }

  it('DELETE of a namespace answers with the Namespace, after preconditions in REST.Delete\'s own words', async () => {
    const made = await plat.admin.post(NS, { metadata: { name: 'ns-del' } });
    assert.equal(made.status, 201, made.text);
    const { uid, resourceVersion } = made.json.metadata;
    const refused: { query: string; message: string }[] = [
      { query: '?uid=zzz', message: `Operation cannot be fulfilled on namespaces "ns-del": Precondition failed: UID in precondition: zzz, UID in object meta: ${uid}` },
      { query: `?uid=${uid}&resourceVersion=1`, message: `Operation cannot be fulfilled on namespaces "ns-del": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${resourceVersion}` },
    ];
    for (const c of refused) {
      const r = await plat.admin.delete(`${NS}/ns-del${c.query}`);
      assert.equal(r.status, 409, `${c.query}: ${r.text}`);
      assert.deepEqual([r.json.reason, r.json.message, r.json.details], ['Conflict', c.message, { name: 'ns-del', kind: 'namespaces' }], c.query);
    }
    const r = await plat.admin.delete(`${NS}/ns-del?uid=${uid}&resourceVersion=${resourceVersion}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.kind, r.json.apiVersion, r.json.metadata.name, r.json.metadata.uid, r.json.status.phase], ['Namespace', 'v1', 'ns-del', uid, 'Terminating']);
    // Marked, not removed: the namespace controller empties and finalizes it (namespace-deletion.test.ts).
    assert.equal((await plat.admin.get(`${NS}/ns-del`)).json.status.phase, 'Terminating');
  });

  it('namespaces have no deletecollection (405), as upstream serves them', async () => {
    const r = await plat.admin.delete(NS);
    assert.equal(r.status, 405, r.text);
    const v1 = await plat.admin.get('/api/v1');
    assert.deepEqual(v1.json.resources.find((x: any) => x.name === 'namespaces').verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
  });
});

describe('core/v1 through kubectl', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  before(async () => { plat = await startProcess(); kubectl = new Kubectl(plat.kubeconfig); });
  after(async () => { await plat?.stop(); });

  it('kubectl get ns, create secret generic, get -o jsonpath, api-resources', async () => {
    const ns = await kubectl.run(['get', 'ns']);
    assert.equal(ns.code, 0, ns.stderr);
    assert.match(ns.stdout, /^NAME\s+STATUS\s+AGE/m);
    assert.match(ns.stdout, /^plat-system\s+Active/m);
    const create = await kubectl.run(['-n', 'plat-system', 'create', 'secret', 'generic', 's1', '--from-literal=a=b']);
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /secret\/s1 created/);
    const get = await kubectl.run(['-n', 'plat-system', 'get', 'secret', 's1', '-o', 'jsonpath={.data.a}']);
    assert.equal(get.code, 0, get.stderr);
    assert.equal(get.stdout, 'Yg==');
    const list = await kubectl.run(['-n', 'plat-system', 'get', 'secrets']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^s1\s+Opaque\s+1\s+/m);
    const missing = await kubectl.run(['-n', 'nope', 'create', 'secret', 'generic', 's1', '--from-literal=a=b']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /namespaces "nope" not found/);
    const res = await kubectl.run(['api-resources']);
    assert.equal(res.code, 0, res.stderr);
    for (const r of ['certificatesigningrequests', 'namespaces', 'secrets']) assert.match(res.stdout, new RegExp(`^${r}\\s`, 'm'));
  });
});
