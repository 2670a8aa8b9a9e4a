// The node lifecycle controller against a real plat (the profile's controllers off, this one run
// on its own, its wall clock injected and moved by the test): a node that never posted status goes
// Unknown past the startup grace period (NodeStatusNeverUpdated); a node whose Lease and heartbeat
// stop goes Unknown with upstream's reason and message and gets the unreachable taints, and loses
// them when it is heard from again; a Ready=False node gets the not-ready taints. The tests share
// one clock and one cluster, in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nodeLifecycleControllerPlugin } from '../../plugins/nodelifecycle-controller/index.js';
import type { NodeLifecycleController } from '../../plugins/nodelifecycle-controller/controller.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { until } from '../controller-manager/support.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { LEASES, leaseObject, nodeObject, nodePath, NODES } from '../nodes/support.js';

const GRACE_MS = 40_000;
const STARTUP_GRACE_MS = 60_000;
/** Less than half the grace: two ticks without a heartbeat expire a node, one does not. */
const TICK_MS = 25_000;

describe('node lifecycle controller', () => {
  let plat: RunningPlat;
  let h: Harness<NodeLifecycleController>;
  let offset = 0;
  /** A step of the controller's wall clock alone (NTP, an operator): time does not pass. */
  let wallStep = 0;
  const now = () => new Date(Date.now() + offset + wallStep);
  /** metav1.MicroTime of the controller's clock. */
  const micro = () => now().toISOString().replace(/Z$/, '000Z');
  const second = () => now().toISOString().replace(/\.\d+Z$/, 'Z');
  /** Names whose agents are alive: their Leases are renewed at every tick. */
  const alive = new Set<string>();

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    h = runController(plat, nodeLifecycleControllerPlugin({ now, monotonicNow: () => performance.now() + offset, monitorPeriodMs: 50, monitorGraceMs: GRACE_MS, startupGraceMs: STARTUP_GRACE_MS, evictionQps: 1000, secondaryEvictionQps: 1000 }), 'node-lifecycle-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const getNode = async (name: string) => (await plat.admin.get(nodePath(name))).json;
  const condition = (node: any, type: string) => node.status?.conditions?.find((c: any) => c.type === type);
  const taints = (node: any) => (node.spec?.taints ?? []).map((t: any) => `${t.key}:${t.effect}`).sort();

  const renew = async (name: string) => {
    const lease = (await plat.admin.get(`${LEASES}/${name}`)).json;
    lease.spec.renewTime = micro();
    const r = await plat.admin.put(`${LEASES}/${name}`, lease);
    assert.equal(r.status, 200, r.text);
    // Seen by the controller (its health record holds it) before the clock moves on.
    await until(async () => h.runnable.monitor.healths.get(name)?.lease?.spec?.renewTime === lease.spec.renewTime, `the renewal of ${name} seen`);
  };
  /** The living agents renew, then time passes. */
  const tick = async () => {
    for (const name of alive) await renew(name);
    offset += TICK_MS;
  };

  const register = async (name: string, status?: any) => {
    const node = nodeObject(name, status === undefined ? {} : { status });
    if (status === undefined) {
      node.status.conditions = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type, status: type === 'Ready' ? 'True' : 'False', reason: 'NodeAgentReady', message: 'fine', lastHeartbeatTime: second(), lastTransitionTime: second(),
      }));
    }
    assert.equal((await plat.admin.post(NODES, node)).status, 201);
    if (status?.conditions?.length !== 0) {
      const lease = leaseObject(name);
      lease.spec.renewTime = micro();
      assert.equal((await plat.admin.post(LEASES, lease)).status, 201);
      alive.add(name);
    }
    await until(async () => h.runnable.monitor.healths.has(name), `${name} observed`);
  };

  it('marks a node that never posted status Unknown once the startup grace period has passed', async () => {
    await register('newborn', { conditions: [] });
    const created = (await getNode('newborn')).metadata.creationTimestamp;
    await tick();
    await tick();
    assert.equal(condition(await getNode('newborn'), 'Ready'), undefined, '50 s: within the startup grace period');
    await tick();
    const node = await until(async () => {
      const n = await getNode('newborn');
      return condition(n, 'Ready') ? n : undefined;
    }, 'newborn marked');
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = condition(node, type);
      assert.deepEqual([c.status, c.reason, c.message, c.lastHeartbeatTime], ['Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.', created], type);
    }
    // Alone in its zone, it is the whole cluster down: no NoExecute taint (upstream's master disruption mode).
    await until(async () => taints(await getNode('newborn')).includes('node.platform/unreachable:NoSchedule') ? true : undefined, 'newborn tainted');
    await until(async () => h.logged('Controller detected that all Nodes are not-Ready. Entering master disruption mode'), 'disruption mode');
    assert.deepEqual(taints(await getNode('newborn')), ['node.platform/unreachable:NoSchedule']);
  });

  it('marks a node whose Lease and heartbeat stopped Unknown and unreachable, and clears that when it is back', async () => {
    await register('keeper');
    await register('edge-a');
    alive.delete('edge-a'); // its agent dies
    await tick();
    assert.equal(condition(await getNode('edge-a'), 'Ready').status, 'True', 'within the grace period');
    await tick();
    const node = await until(async () => {
      const n = await getNode('edge-a');
      return taints(n).length === 2 ? n : undefined;
    }, 'edge-a unreachable and tainted');
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = condition(node, type);
      assert.deepEqual([c.status, c.reason, c.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'], type);
    }
    assert.deepEqual(taints(node), ['node.platform/unreachable:NoExecute', 'node.platform/unreachable:NoSchedule']);
    assert.ok(node.spec.taints.every((t: any) => typeof t.timeAdded === 'string'), JSON.stringify(node.spec.taints));
    assert.equal(condition(await getNode('keeper'), 'Ready').status, 'True');
    assert.deepEqual(taints(await getNode('keeper')), []);
    assert.ok(h.logged('Node is unresponsive. Adding it to the Taint queue', 'node="edge-a"'));

    // The agent is back: it posts Ready and renews its Lease.
    const back = await getNode('edge-a');
    back.status.conditions = back.status.conditions.map((c: any) => ({ ...c, status: c.type === 'Ready' ? 'True' : 'False', reason: 'NodeAgentReady', lastHeartbeatTime: second(), lastTransitionTime: second() }));
    assert.equal((await plat.admin.put(nodePath('edge-a', 'status'), back)).status, 200);
    alive.add('edge-a');
    await renew('edge-a');
    await until(async () => taints(await getNode('edge-a')).length === 0 ? true : undefined, 'edge-a untainted');
    assert.equal(condition(await getNode('edge-a'), 'Ready').status, 'True');
    assert.ok(h.logged('Node is healthy again, removed all taints', 'node="edge-a"'));
  });

  it('taints a node that reports Ready=False not-ready', async () => {
    await register('sick', { conditions: [{ type: 'Ready', status: 'False', reason: 'NodeAgentNotReady', message: 'container runtime is down', lastHeartbeatTime: second(), lastTransitionTime: second() }] });
    const node = await until(async () => {
      const n = await getNode('sick');
      return taints(n).length === 2 ? n : undefined;
    }, 'sick tainted');
    assert.deepEqual(taints(node), ['node.platform/not-ready:NoExecute', 'node.platform/not-ready:NoSchedule']);
    assert.equal(condition(node, 'Ready').reason, 'NodeAgentNotReady', 'the node\'s own condition is left as it is');
  });


  it('a wall clock stepped forward an hour marks no node Unknown (grace periods run on the monotonic clock)', async () => {
    await register('steady');
    const monitor = h.runnable.monitor;
    const pass = monitor.monitorNodeHealth;
    let passes = 0;
    monitor.monitorNodeHealth = async (signal) => { await pass.call(monitor, signal); passes++; };
    wallStep = 3_600_000;
    try {
      // Two whole passes of the controller's loop after the step (one may have been under way): the
      // wall-clock check expired every node at the first.
      await until(async () => (passes >= 2 ? true : undefined), 'two monitor passes');
      const node = await getNode('steady');
      assert.equal(condition(node, 'Ready').status, 'True');
      assert.deepEqual(taints(node), []);
      assert.ok(!h.logged("Node hasn't been updated", 'node="steady"'));
    } finally {
      wallStep = 0;
      monitor.monitorNodeHealth = pass;
    }
  });

  it('logged no failure on the way', () => {
    assert.deepEqual(h.lines.filter((l) => /Unhandled Error|Error updating node|Failed to/.test(l)), []);
  });
});
