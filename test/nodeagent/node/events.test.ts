// The node agent's node Events against a real `plat all` (Node,RBAC + NodeRestriction: a node may
// write Events), as the kubelet records them: `Starting`, the pressure conditions' first statuses,
// NodeReady once Ready turns True (not for a node's first Ready condition); about the kubelet's
// nodeRef (uid = the node's name) in `default`, from nodeagent on the node. Then the event client's
// own limit: --event-qps/--event-burst 0 mean 5 and 10.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoreEvent } from '../../../core/api/event.js';
import { restEventSink } from '../../../core/client/events/event-sink.js';
import { RestClient, type RequestOptions } from '../../../core/client/rest-client.js';
import { createLogger } from '../../../core/log.js';
import { nodeSubsystem } from '../../../plugins/nodeagent-node/index.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, type RunningPlat } from '../../helpers/plat.js';
import { advanceUntil, eventually, fakeMachine, fakeNetwork, ManualClock, nodeClient, nodeFlags } from './support.js';

describe('node agent Events', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', '--controllers=-node-lifecycle-controller,*'] });
  });
  after(async () => { await plat?.stop(); });

  const eventsOf = async (name: string): Promise<CoreEvent[]> => {
    const r = await plat.admin.get(`/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name},source=nodeagent`)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items as CoreEvent[];
  };

  it('records Starting, the conditions\' first statuses and NodeReady as the kubelet does', async () => {
    const clock = new ManualClock();
    const logs: string[] = [];
    const ctx = nodeAgentTestContext({ nodeName: 'ev-node', flags: nodeFlags(['--node-ip=192.0.2.30']), logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }) });
    const client = nodeClient(plat, 'ev-node');
    ctx.api.set(client);
    // The machine cannot be read at first: no capacity, so the node registers NotReady, then turns Ready.
    let machineReads = 0;
    const sub = nodeSubsystem(ctx, {
      version: '0.1.0', clock, random: () => 0, network: fakeNetwork(),
      machine: async () => { if (machineReads++ < 1) throw new Error('machine info not there yet'); return fakeMachine(); },
    });
    const ac = new AbortController();
    const done = sub.run(ac.signal);
    try {
      await advanceUntil(clock, () => sub.sync.registered, 'registration', 2);
      const reasons = async () => (await eventsOf('ev-node')).map((e) => e.reason).sort();
      await advanceUntil(clock, async () => (await reasons()).includes('NodeReady'), 'NodeReady', 2);
      const events = await eventsOf('ev-node');
      assert.deepEqual(events.map((e) => e.reason).sort(), ['NodeHasNoDiskPressure', 'NodeHasSufficientMemory', 'NodeHasSufficientPID', 'NodeReady', 'Starting']);
      const byReason = new Map(events.map((e) => [e.reason, e]));
      assert.equal(byReason.get('Starting')!.message, 'Starting nodeagent.');
      assert.equal(byReason.get('NodeReady')!.message, 'Node ev-node status is now: NodeReady');
      assert.equal(byReason.get('NodeHasSufficientMemory')!.message, 'Node ev-node status is now: NodeHasSufficientMemory');
      for (const e of events) {
        assert.deepEqual(e.involvedObject, { kind: 'Node', name: 'ev-node', uid: 'ev-node' });
        assert.deepEqual([e.type, e.source, e.reportingComponent, e.reportingInstance, e.count], ['Normal', { component: 'nodeagent', host: 'ev-node' }, 'nodeagent', 'ev-node', 1]);
      }
      assert.ok(logs.some((l) => l.includes('Recording event message for node') && l.includes('event="NodeReady"')), logs.join('\n'));
    } finally {
      ac.abort();
      await done;
      client.close();
    }
  });

  it('the event client has its own limit: eventRecordQPS and eventBurst of 0 are 5 and 10', async () => {
    const sent: RequestOptions[] = [];
    const gate = new (class extends RestClient {
      override request<T = unknown>(_method: string, _path: string, o: RequestOptions = {}): Promise<T> {
        sent.push(o);
        return Promise.resolve(o.body as T);
      }
    })({ server: new URL('https://127.0.0.1:1') }, { qps: 1, burst: 1 });
    const sink = restEventSink(gate, { qps: 0, burst: 0 });
    const ev = (i: number): CoreEvent => ({ metadata: { name: `e${i}`, namespace: 'default' } });
    const writes = Array.from({ length: 12 }, (_, i) => sink.create(ev(i)));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    // The burst of 10 goes at once, past the client's own limit of 1; the rest wait for the 5/s refill.
    assert.equal(sent.length, 10);
    assert.ok(sent.every((o) => o.unthrottled === true));
    await Promise.all(writes);
    assert.equal(sent.length, 12);
    await eventually(() => sent.length === 12 || undefined, 'all sent');
    gate.close();
  });
});
