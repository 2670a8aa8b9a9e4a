// The machine's kubectl against a real plat: get nodes (and -o wide, and by field selector),
// describe node, and the node verbs cordon, uncordon, label and taint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { nodeObject, NODES, WITHOUT_NODE_LIFECYCLE } from './support.js';

/** kubectl's table output as rows of cells (columns are separated by two or more spaces). */
const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('kubectl and nodes', () => {
  let plat: RunningPlat;
  let k: Kubectl;
  before(async () => {
    plat = await startInProcess({ args: [WITHOUT_NODE_LIFECYCLE] });
    k = new Kubectl(plat.kubeconfig);
    const body = nodeObject('edge-1', { labels: { 'platform/hostname': 'edge-1', 'node-role.platform/worker': '' } });
    body.status.addresses.push({ type: 'ExternalIP', address: '203.0.113.7' });
    body.status.conditions[0].lastHeartbeatTime = '2026-01-01T00:00:00Z';
    body.status.conditions[0].lastTransitionTime = '2026-01-01T00:00:00Z';
    assert.equal((await plat.admin.post(NODES, body)).status, 201);
  });
  after(async () => { await plat?.stop(); });

  it('get nodes: NAME STATUS ROLES AGE VERSION', async () => {
    const r = await k.run(['get', 'nodes']);
    assert.equal(r.code, 0, r.stderr);
    const [head, row] = rows(r.stdout);
    assert.deepEqual(head, ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    assert.deepEqual([row![0], row![1], row![2], row![4]], ['edge-1', 'Ready', 'worker', 'v0.1.0']);
  });

  it('get nodes -o wide adds the addresses, OS image, kernel and runtime', async () => {
    const r = await k.run(['get', 'no', '-o', 'wide']);
    assert.equal(r.code, 0, r.stderr);
    const [head, row] = rows(r.stdout);
    assert.deepEqual(head, ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']);
    assert.deepEqual(row!.slice(5), ['192.0.2.10', '203.0.113.7', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', '<unknown>']);
  });

  it('describe node prints the node, its conditions, addresses, capacity and system info', async () => {
    const r = await k.run(['describe', 'node', 'edge-1']);
    assert.equal(r.code, 0, r.stderr);
    for (const line of [/^Name:\s+edge-1$/m, /^Labels:\s+node-role\.platform\/worker=$/m, /^\s+Ready\s+True\s+.*NodeAgentReady\s+nodeagent is posting ready status$/m,
      /^\s+InternalIP:\s+192\.0\.2\.10$/m, /^\s+ExternalIP:\s+203\.0\.113\.7$/m, /^\s+memory:\s+8Gi$/m, /^\s+Kubelet Version:\s+v0\.1\.0$/m,
      /^\s+OS Image:\s+Debian GNU\/Linux 12 \(bookworm\)$/m, /^Non-terminated Pods:\s+\(0 in total\)$/m]) {
      assert.match(r.stdout, line);
    }
  });

  it('cordon, label and taint patch the Node; a field selector finds the cordoned one', async () => {
    for (const args of [['cordon', 'edge-1'], ['label', 'node', 'edge-1', 'team=blue'], ['taint', 'nodes', 'edge-1', 'dedicated=edge:NoSchedule']]) {
      const r = await k.run(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const node = (await plat.admin.get(`${NODES}/edge-1`)).json;
    assert.equal(node.spec.unschedulable, true);
    assert.equal(node.metadata.labels.team, 'blue');
    assert.deepEqual(node.spec.taints, [{ key: 'dedicated', value: 'edge', effect: 'NoSchedule' }]);
    const sel = await k.run(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name']);
    assert.equal(sel.stdout.trim(), 'node/edge-1');
    const st = rows((await k.run(['get', 'node', 'edge-1'])).stdout)[1]!;
    assert.equal(st[1], 'Ready,SchedulingDisabled');
    assert.equal((await k.run(['uncordon', 'edge-1'])).code, 0);
    assert.equal((await plat.admin.get(`${NODES}/edge-1`)).json.spec.unschedulable, undefined);
  });

  it('get pods answers that there are none', async () => {
    const r = await k.run(['get', 'pods', '-A']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /No resources found/);
  });
});
