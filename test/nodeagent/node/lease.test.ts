// The node's heartbeat Lease against a real plat, time moved by the test: its shape (holder,
// duration, MicroTime renewTime, owned by the Node), renewal every quarter of the lease duration,
// recovery after someone else wrote it (conflict) or deleted it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { microTime } from '../../../core/controller/leader-election.js';
import type { NodeAgentConfiguration } from '../../../core/nodeagent/configuration.js';
import { nodeSubsystem } from '../../../plugins/nodeagent-node/index.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, type RunningPlat } from '../../helpers/plat.js';
import { advanceUntil, fakeMachine, fakeNetwork, ManualClock, nodeClient, nodeFlags } from './support.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases';

describe('the node Lease', () => {
  let plat: RunningPlat;
  const stops: Array<() => Promise<void>> = [];
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'] });
  });
  after(async () => {
    for (const s of stops) await s();
    await plat?.stop();
  });

  function start(name: string, config: Partial<NodeAgentConfiguration> = {}) {
    const clock = new ManualClock();
    const ctx = nodeAgentTestContext({ nodeName: name, flags: nodeFlags(['--node-ip=192.0.2.20']), config });
    const client = nodeClient(plat, name);
    ctx.api.set(client);
    const sub = nodeSubsystem(ctx, { version: '0.1.0', clock, random: () => 0, network: fakeNetwork(), machine: async () => fakeMachine() });
    const ac = new AbortController();
    const done = sub.run(ac.signal);
    stops.push(async () => { ac.abort(); await done; client.close(); });
    return { clock, sub };
  }
  const lease = async (name: string) => {
    const r = await plat.admin.get(`${LEASES}/${name}`);
    return r.status === 200 ? r.json : undefined;
  };

  it('is plat-node-lease/<node>, held by the node for nodeLeaseDurationSeconds, owned by its Node, and renewed every 10s', async () => {
    const { clock, sub } = start('lease-1');
    await advanceUntil(clock, async () => (await lease('lease-1')) !== undefined, 'the lease', 2);
    const node = (await plat.admin.get('/api/v1/nodes/lease-1')).json;
    const l = (await lease('lease-1'))!;
    assert.equal(l.spec.holderIdentity, 'lease-1');
    assert.equal(l.spec.leaseDurationSeconds, 40);
    assert.deepEqual(l.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'lease-1', uid: node.metadata.uid }]);
    assert.equal(l.spec.renewTime, microTime(clock.now()));
    assert.match(l.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(sub.lease.renewIntervalMs, 10_000);

    // Each renewal comes a renew interval after the last (no jitter drawn here), from the last Lease written.
    const renewals: number[] = [Date.parse(l.spec.renewTime)];
    await advanceUntil(clock, async () => {
      const t = Date.parse((await lease('lease-1'))!.spec.renewTime);
      if (t !== renewals.at(-1)) renewals.push(t);
      return renewals.length >= 4;
    }, 'three renewals', 2);
    assert.deepEqual(renewals.slice(1).map((t, i) => t - renewals[i]!), [10_000, 10_000, 10_000]);
  });

  it('renews a quarter of a shorter lease duration', async () => {
    const { clock, sub } = start('lease-2', { nodeLeaseDurationSeconds: 20 });
    assert.equal(sub.lease.renewIntervalMs, 5_000);
    await advanceUntil(clock, async () => (await lease('lease-2')) !== undefined, 'the lease', 2);
    const first = Date.parse((await lease('lease-2'))!.spec.renewTime);
    await advanceUntil(clock, async () => Date.parse((await lease('lease-2'))!.spec.renewTime) !== first, 'a renewal', 2);
    assert.equal(Date.parse((await lease('lease-2'))!.spec.renewTime) - first, 5_000);
    assert.equal((await lease('lease-2'))!.spec.leaseDurationSeconds, 20);
  });

  it('after a write by someone else (conflict) it renews what is stored; after a delete it creates the Lease again', async () => {
    const { clock } = start('lease-3');
    await advanceUntil(clock, async () => (await lease('lease-3')) !== undefined, 'the lease', 2);
    const stored = (await lease('lease-3'))!;
    const labelled = await plat.admin.patch(`${LEASES}/lease-3`, { metadata: { labels: { audited: 'yes' } } }, 'application/merge-patch+json');
    assert.equal(labelled.status, 200, labelled.text);
    await advanceUntil(clock, async () => (await lease('lease-3'))!.spec.renewTime !== stored.spec.renewTime, 'a renewal after the conflict', 2);
    assert.equal((await lease('lease-3'))!.metadata.labels?.audited, 'yes');

    assert.equal((await plat.admin.delete(`${LEASES}/lease-3`)).status, 200);
    await advanceUntil(clock, async () => (await lease('lease-3')) !== undefined, 'the lease created again', 2);
    const again = (await lease('lease-3'))!;
    assert.notEqual(again.metadata.uid, stored.metadata.uid);
    assert.equal(again.spec.holderIdentity, 'lease-3');
    assert.equal(again.metadata.ownerReferences?.[0]?.name, 'lease-3');
  });
});
