// What a node identity (client certificate CN=system:node:<name>, O=system:nodes from plat's CA)
// may do to Nodes and Leases under --authorization-mode=Node,RBAC with NodeRestriction: its own
// Node and Lease, read by name or by a metadata.name field selector, and nothing of another node's;
// the label, taint and owner-reference rules on its own Node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../helpers/plat.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { withClientCert } from '../authz/support.js';
import { assertForbidden, leaseObject, LEASES, nodeObject, nodePath, NODES } from './support.js';

const SMP = 'application/strategic-merge-patch+json';
const MERGE = 'application/merge-patch+json';
const cannot = (verb: string, resource: string, scope = 'at the cluster scope', group = '') =>
  `User "system:node:n1" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`;

describe('a node identity on Nodes and Leases (Node,RBAC + NodeRestriction)', () => {
  let plat: RunningPlat;
  let n1: Client;
  let n3: Client;
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'] });
    n1 = withClientCert(plat, 'system:node:n1', ['system:nodes']);
    n3 = withClientCert(plat, 'system:node:n3', ['system:nodes']);
    assert.equal((await plat.admin.post(NODES, nodeObject('n2'))).status, 201);
    assert.equal((await plat.admin.post(LEASES, leaseObject('n2'))).status, 201);
  });
  after(async () => { await plat?.stop(); });

  it('registers its own Node, with the labels node agents may set and taints', async () => {
    const body = nodeObject('n1', {
      labels: {
        'platform/hostname': 'n1', 'platform/os': 'linux', 'beta.platform/arch': 'amd64', 'topology.platform/zone': 'z1',
        'nodeagent.platform/anything': 'x', 'node.platform/pool': 'edge', 'sub.node.platform/k': 'v', 'example.com/team': 'a',
      },
      spec: { taints: [{ key: 'dedicated', value: 'edge', effect: 'NoSchedule' }] },
    });
    const r = await n1.post(NODES, body);
    assert.equal(r.status, 201, r.text);
  });

  it('may not register another node', async () => {
    assertForbidden(await n1.post(NODES, nodeObject('n9')), 'nodes', 'n9', 'node "n1" is not allowed to modify node "n9"');
  });

  it('may not register with labels reserved to administrators', async () => {
    const body = nodeObject('n3', { labels: { 'platform/hostname': 'n3', 'node-role.platform/worker': '', 'node-restriction.platform/tier': 'gold', 'platform/other': 'x', 'x.platform/y': 'z' } });
    assertForbidden(await n3.post(NODES, body), 'nodes', 'n3',
      'node "n3" is not allowed to set the following labels: node-restriction.platform/tier, node-role.platform/worker, platform/other, x.platform/y');
    // Upstream's spellings are reserved too: kubectl reads a node's role from node-role.kubernetes.io.
    const upstream = nodeObject('n3', { labels: { 'kubernetes.io/hostname': 'n3', 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master', 'node-restriction.kubernetes.io/pci': 'true' } });
    assertForbidden(await n3.post(NODES, upstream), 'nodes', 'n3',
      'node "n3" is not allowed to set the following labels: kubernetes.io/role, node-restriction.kubernetes.io/pci, node-role.kubernetes.io/control-plane');
    assertForbidden(await n3.post(NODES, nodeObject('n3', { spec: { configSource: { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'k' } } } })),
      'nodes', 'n3', 'node "n3" is not allowed to create pods with a non-nil configSource');
  });

  it('reads its own Node by name and through a metadata.name field selector, list and watch', async () => {
    assert.equal((await n1.get(nodePath('n1'))).status, 200);
    const l = await n1.get(`${NODES}?fieldSelector=metadata.name%3Dn1`);
    assert.equal(l.status, 200, l.text);
    assert.deepEqual(l.json.items.map((n: any) => n.metadata.name), ['n1']);
    const w = await n1.get(`${NODES}?watch=true&fieldSelector=metadata.name%3Dn1&timeoutSeconds=1`);
    assert.equal(w.status, 200, w.text);
    assert.equal(JSON.parse(w.text.split('\n')[0]!).object.metadata.name, 'n1');
  });

  it("may not read another node's Node, nor list all of them", async () => {
    // The Node authorizer's no-opinion reason ends the message, as upstream's.
    const notN2 = "node 'n1' cannot read 'n2', only its own Node object";
    assertForbidden(await n1.get(nodePath('n2')), 'nodes', 'n2', `${cannot('get', 'nodes')}: ${notN2}`);
    assertForbidden(await n1.get(`${NODES}?fieldSelector=metadata.name%3Dn2`), 'nodes', 'n2', `${cannot('list', 'nodes')}: ${notN2}`);
    const all = await n1.get(NODES);
    assert.equal(all.status, 403, all.text);
    assert.equal(all.json.message, `nodes is forbidden: ${cannot('list', 'nodes')}: node 'n1' cannot read all nodes, only its own Node object`);
  });

  it('reports its status, and may change the labels it owns through it', async () => {
    const p = await n1.patch(nodePath('n1', 'status'), {
      metadata: { labels: { 'nodeagent.platform/anything': 'y', 'platform/os': 'linux2' } },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'NodeAgentReady', lastHeartbeatTime: '2026-01-01T00:00:00Z' }] },
    }, SMP);
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json.metadata.labels['nodeagent.platform/anything'], 'y');
  });

  it('may not change reserved labels, its taints or its owner references', async () => {
    assertForbidden(await n1.patch(nodePath('n1', 'status'), { metadata: { labels: { 'node-role.platform/master': '' } } }, SMP),
      'nodes', 'n1', 'is not allowed to modify labels: node-role.platform/master');
    assertForbidden(await n1.patch(nodePath('n1'), { metadata: { labels: { 'platform/role': 'x', 'example.com/free': 'ok' } } }, MERGE),
      'nodes', 'n1', 'is not allowed to modify labels: platform/role');
    assertForbidden(await n1.patch(nodePath('n1'), { spec: { taints: [] } }, MERGE), 'nodes', 'n1', 'node "n1" is not allowed to modify taints');
    assertForbidden(await n1.patch(nodePath('n1'), { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n2', uid: 'u' }] } }, MERGE),
      'nodes', 'n1', 'node "n1" is not allowed to modify ownerReferences');
    // An administrator is not restricted.
    assert.equal((await plat.admin.patch(nodePath('n1'), { metadata: { labels: { 'node-role.platform/master': '' } }, spec: { taints: [] } }, MERGE)).status, 200);
  });

  it("may not write another node's Node or delete its own", async () => {
    assertForbidden(await n1.patch(nodePath('n2', 'status'), { status: { phase: 'x' } }, MERGE), 'nodes', 'n2', 'node "n1" is not allowed to modify node "n2"');
    assertForbidden(await n1.patch(nodePath('n2'), { metadata: { labels: { a: 'b' } } }, MERGE), 'nodes', 'n2', 'node "n1" is not allowed to modify node "n2"');
    assertForbidden(await n1.delete(nodePath('n1')), 'nodes', 'n1', cannot('delete', 'nodes'));
  });

  it('keeps its own Lease in plat-node-lease: create, get, update', async () => {
    const c = await n1.post(LEASES, leaseObject('n1'));
    assert.equal(c.status, 201, c.text);
    assert.equal((await n1.get(`${LEASES}/n1`)).status, 200);
    const renewed = { ...c.json, spec: { ...c.json.spec, renewTime: '2026-01-01T00:00:10.000000Z' } };
    const u = await n1.put(`${LEASES}/n1`, renewed);
    assert.equal(u.status, 200, u.text);
  });

  it("may not touch another node's Lease, nor leases elsewhere", async () => {
    assertForbidden(await n1.post(LEASES, leaseObject('n2x')), 'leases.coordination.platform', 'n2x',
      'can only access node lease with the same name as the requesting node');
    const other = (await plat.admin.get(`${LEASES}/n2`)).json;
    assertForbidden(await n1.put(`${LEASES}/n2`, other), 'leases.coordination.platform', 'n2',
      `${cannot('update', 'leases', 'in the namespace "plat-node-lease"', 'coordination.platform')}: can only access node lease with the same name as the requesting node`);
    const elsewhere = { ...leaseObject('n1'), metadata: { name: 'n1', namespace: 'default' } };
    const r = await n1.post('/apis/coordination.platform/v1/namespaces/default/leases', elsewhere);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message,
      `leases.coordination.platform is forbidden: ${cannot('create', 'leases', 'in the namespace "default"', 'coordination.platform')}: can only access leases in the "plat-node-lease" system namespace`);
  });
});
