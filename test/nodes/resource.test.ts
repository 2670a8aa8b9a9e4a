// core/v1 Node over HTTPS against a real `plat all`: discovery, create with status, the status
// subresource's division of labour with the main resource, canonical quantities, podCIDR(s) kept in
// step, field selectors, kubectl's columns as a server-side Table, and the read-only Pods view.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { Kubectl } from '../helpers/kubectl.js';
import { nodeObject, nodePath, NODES, WITHOUT_NODE_LIFECYCLE } from './support.js';

const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const SMP = 'application/strategic-merge-patch+json';

describe('core/v1 nodes', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: [WITHOUT_NODE_LIFECYCLE] }); });
  after(async () => { await plat?.stop(); });

  it('is in discovery: cluster-scoped, short name no, with nodes/status', async () => {
    const v1 = await plat.admin.get('/api/v1');
    const byName = new Map<string, any>(v1.json.resources.map((r: any) => [r.name, r]));
    const nodes = byName.get('nodes');
    assert.equal(nodes.namespaced, false);
    assert.equal(nodes.kind, 'Node');
    assert.deepEqual(nodes.shortNames, ['no']);
    assert.ok(byName.has('nodes/status'));
  });

  it('creates a Node with its status, and reads quantities back in canonical form', async () => {
    const body = nodeObject('create-1');
    body.status.capacity = { cpu: '2000m', memory: '1048576Ki', pods: '110', 'ephemeral-storage': '0.5Gi' };
    const c = await plat.admin.post(NODES, body);
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.json.status.capacity, { cpu: '2', memory: '1Gi', pods: '110', 'ephemeral-storage': '512Mi' });
    assert.equal(c.json.status.conditions[0].reason, 'NodeAgentReady');
    assert.equal(c.json.metadata.namespace, undefined);
    const g = await plat.admin.get(nodePath('create-1'));
    assert.deepEqual(g.json.status, c.json.status);
  });

  it('refuses a quantity that does not parse as upstream decoding does (400)', async () => {
    const body = nodeObject('bad-quantity');
    body.status.capacity.memory = '12 Gi';
    const r = await plat.admin.post(NODES, body);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, `Node in version "v1" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  });

  // Quantity.UnmarshalJSON parses the raw JSON text of any value (a string's without its quotes,
  // trimmed); its error ends decoding at once, ahead of a type error saved earlier in the body.
  const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const quantityCases: { name: string; value: unknown; stored?: string; error?: string }[] = [
    { name: 'an integer number', value: 2, stored: '2' },
    { name: 'a fractional number', value: 0.5, stored: '500m' },
    { name: 'a string with spaces around it', value: ' 1Gi\t', stored: '1Gi' },
    { name: 'null (the zero Quantity)', value: null, stored: '0' },
    { name: 'a boolean', value: true, error: FORMAT_WRONG },
    { name: 'an object', value: { a: 1 }, error: FORMAT_WRONG },
    { name: 'a list', value: ['1'], error: FORMAT_WRONG },
    { name: 'a suffix that is not one', value: '1mi', error: "unable to parse quantity's suffix" },
  ];
  for (const t of quantityCases) {
    it(`decodes a capacity given as ${t.name} as upstream does`, async () => {
      const body = nodeObject(`q-${quantityCases.indexOf(t)}`);
      body.status.capacity = { cpu: t.value, pods: '110' };
      const r = await plat.admin.post(NODES, body);
      if (t.error === undefined) {
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.json.status.capacity, { cpu: t.stored, pods: '110' });
        return;
      }
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, `Node in version "v1" cannot be handled as a Node: ${t.error}`);
      const earlier = nodeObject(`q-${quantityCases.indexOf(t)}-b`);
      earlier.metadata.labels = { a: 5 };
      earlier.status.capacity = { cpu: t.value };
      const both = await plat.admin.post(NODES, earlier);
      assert.equal(both.json.message, `Node in version "v1" cannot be handled as a Node: ${t.error}`, 'the quantity error wins');
    });
  }

  it('keeps spec.podCIDR and spec.podCIDRs in step', async () => {
    const a = await plat.admin.post(NODES, nodeObject('cidr-1', { spec: { podCIDR: '10.0.1.0/24' } }));
    assert.equal(a.status, 201, a.text);
    assert.deepEqual([a.json.spec.podCIDR, a.json.spec.podCIDRs], ['10.0.1.0/24', ['10.0.1.0/24']]);
    const b = await plat.admin.post(NODES, nodeObject('cidr-2', { spec: { podCIDRs: ['10.0.2.0/24', 'fd00:2::/64'] } }));
    assert.equal(b.status, 201, b.text);
    assert.deepEqual([b.json.spec.podCIDR, b.json.spec.podCIDRs], ['10.0.2.0/24', ['10.0.2.0/24', 'fd00:2::/64']]);
  });

  it('a write to the Node keeps the stored status; a write to nodes/status keeps the stored spec', async () => {
    const created = (await plat.admin.post(NODES, nodeObject('split-1'))).json;
    const main = structuredClone(created);
    main.spec.unschedulable = true;
    main.status.conditions[0].status = 'False';
    main.metadata.labels.team = 'a';
    const u = await plat.admin.put(nodePath('split-1'), main);
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json.spec.unschedulable, true);
    assert.equal(u.json.status.conditions[0].status, 'True');
    assert.equal(u.json.metadata.labels.team, 'a');

    const st = structuredClone(u.json);
    st.spec.unschedulable = false;
    st.status.conditions[0].status = 'False';
    st.metadata.labels.team = 'b';
    const s = await plat.admin.put(nodePath('split-1', 'status'), st);
    assert.equal(s.status, 200, s.text);
    assert.equal(s.json.spec.unschedulable, true);
    assert.equal(s.json.status.conditions[0].status, 'False');
    // Metadata passes through /status too: the node agent reconciles its labels that way.
    assert.equal(s.json.metadata.labels.team, 'b');
  });

  it('merges a status patch into the conditions by type, as strategic merge patch does for node agents', async () => {
    await plat.admin.post(NODES, nodeObject('smp-1'));
    const p = await plat.admin.patch(nodePath('smp-1', 'status'), {
      status: { conditions: [{ type: 'MemoryPressure', status: 'False', reason: 'NodeAgentHasSufficientMemory' }] },
    }, SMP);
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(p.json.status.conditions.map((c: any) => c.type).sort(), ['MemoryPressure', 'Ready']);
    const replaced = await plat.admin.patch(nodePath('smp-1', 'status'), {
      status: { addresses: [{ $patch: 'replace' }, { type: 'InternalIP', address: '192.0.2.11' }, { type: 'InternalIP', address: 'fd00::11' }] },
    }, SMP);
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(replaced.json.status.addresses, [{ type: 'InternalIP', address: '192.0.2.11' }, { type: 'InternalIP', address: 'fd00::11' }]);
  });

  it('keeps 1.32\'s status.runtimeHandlers and status.features, through a merge patch and an apply', async () => {
    await plat.admin.post(NODES, nodeObject('rt-1'));
    const status = { runtimeHandlers: [{ name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: false } }, { name: 'runc', features: { recursiveReadOnlyMounts: true } }], features: { supplementalGroupsPolicy: true } };
    const p = await plat.admin.patch(nodePath('rt-1', 'status'), { status }, 'application/merge-patch+json');
    assert.equal(p.status, 200, p.text);
    assert.equal(p.headers['warning'], undefined);
    assert.deepEqual({ runtimeHandlers: p.json.status.runtimeHandlers, features: p.json.status.features }, status);
    const applied = await plat.admin.patch(`${nodePath('rt-1', 'status')}?fieldManager=nodeagent&force=true`,
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'rt-1' }, status: { features: { supplementalGroupsPolicy: false } } }, 'application/apply-patch+yaml');
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(applied.json.status.features, { supplementalGroupsPolicy: false });
  });

  it('selects by metadata.name and spec.unschedulable, and refuses other field labels', async () => {
    await plat.admin.post(NODES, nodeObject('sel-a'));
    await plat.admin.post(NODES, nodeObject('sel-b', { spec: { unschedulable: true } }));
    const names = async (q: string) => (await plat.admin.get(`${NODES}?fieldSelector=${encodeURIComponent(q)}`)).json.items.map((n: any) => n.metadata.name);
    assert.deepEqual(await names('metadata.name=sel-a'), ['sel-a']);
    const cordoned = await names('spec.unschedulable=true');
    assert.ok(cordoned.includes('sel-b') && !cordoned.includes('sel-a'), cordoned.join());
    assert.ok((await names('spec.unschedulable=false')).includes('sel-a'));
    const bad = await plat.admin.get(`${NODES}?fieldSelector=spec.providerID%3Dx`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.message, 'field label not supported: spec.providerID');
  });

  it("serves kubectl's get nodes columns as a Table, the wide ones at priority 1", async () => {
    const body = nodeObject('table-1', { labels: { 'node-role.platform/worker': '', 'node-role.platform/edge': '', 'platform/role': 'gateway' }, spec: { unschedulable: true } });
    body.status.addresses.push({ type: 'ExternalIP', address: '203.0.113.7' });
    await plat.admin.post(NODES, body);
    const t = await plat.admin.get(nodePath('table-1'), TABLE);
    assert.equal(t.status, 200, t.text);
    assert.deepEqual(t.json.columnDefinitions.map((c: any) => [c.name, c.priority]), [
      ['Name', 0], ['Status', 0], ['Roles', 0], ['Age', 0], ['Version', 0],
      ['Internal-IP', 1], ['External-IP', 1], ['OS-Image', 1], ['Kernel-Version', 1], ['Container-Runtime', 1],
    ]);
    const cells = t.json.rows[0].cells;
    assert.deepEqual([cells[0], cells[1], cells[2], cells[4]], ['table-1', 'Ready,SchedulingDisabled', 'edge,gateway,worker', 'v0.1.0']);
    assert.deepEqual(cells.slice(5), ['192.0.2.10', '203.0.113.7', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', '<unknown>']);

    const bare = await plat.admin.post(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'table-2' } });
    assert.equal(bare.status, 201, bare.text);
    const t2 = await plat.admin.get(nodePath('table-2'), TABLE);
    const c2 = t2.json.rows[0].cells;
    assert.deepEqual([c2[1], c2[2], c2[4], ...c2.slice(5)], ['Unknown', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('create drops the removed configSource and status.config (dropDisabledFields), so only externalID draws a warning', async () => {
    const configSource = { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'k' } };
    const body = nodeObject('warn-1', { spec: { externalID: 'x', configSource } });
    body.status.config = { assigned: configSource, active: configSource, error: 'e' };
    const r = await plat.admin.post(NODES, body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['warning'], '299 - "spec.externalID: this field is deprecated, and is unused by Kubernetes"');
    assert.equal(r.json.spec.configSource, undefined);
    assert.equal(r.json.status.config, undefined);
    assert.equal(r.json.spec.externalID, 'x');
  });

  it('nodes/status keeps status.config out unless the stored Node has one', async () => {
    const created = (await plat.admin.post(NODES, nodeObject('cfg-status-1'))).json;
    created.status.config = { lastKnownGood: { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'k' } } };
    const u = await plat.admin.put(nodePath('cfg-status-1', 'status'), created);
    assert.equal(u.status, 200, u.text);
    assert.equal(u.headers['warning'], undefined);
    assert.equal(u.json.status.config, undefined);
  });

  it('drops a configSource an update adds, as upstream drops the removed feature', async () => {
    const created = (await plat.admin.post(NODES, nodeObject('cfg-1'))).json;
    created.spec.configSource = { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'k' } };
    const u = await plat.admin.put(nodePath('cfg-1'), created);
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json.spec.configSource, undefined);
  });

  it('lists Pods in the `all` category, as upstream\'s pod storage: kubectl get all works', async () => {
    const legacy = (await plat.admin.get('/api/v1')).json.resources.find((r: { name: string }) => r.name === 'pods');
    assert.deepEqual(legacy.categories, ['all']);
    const r = await new Kubectl(plat.kubeconfig).run(['get', 'all', '-A']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /No resources found/);
  });

  it('serves Pods read-only and empty, with the field selectors node clients use', async () => {
    const l = await plat.admin.get('/api/v1/pods?fieldSelector=spec.nodeName%3Dtable-1%2Cstatus.phase!%3DSucceeded%2Cstatus.phase!%3DFailed&limit=500');
    assert.equal(l.status, 200, l.text);
    assert.equal(l.json.kind, 'PodList');
    assert.deepEqual(l.json.items, []);
    const c = await plat.admin.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } });
    assert.equal(c.status, 405, c.text);
    assert.equal((await plat.admin.get('/api/v1/namespaces/default/pods/p')).status, 404);
  });
});
