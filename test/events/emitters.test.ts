// The controller manager's Events in `plat all`, as upstream records them: the LeaderElection Event
// on its Lease, the node lifecycle controller's RegisteredNode, NodeNotReady and RemovingNode on the
// Node (source node-controller, in `default`), and the garbage collector's OwnerRefInvalidNamespace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoreEvent } from '../../core/api/event.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

describe('Events of the controller manager', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess({ args: ['--leader-elect=true', '--node-monitor-period=100ms', '--node-monitor-grace-period=1s', '--node-startup-grace-period=1s'] });
  });
  after(async () => { await plat?.stop(); });

  const events = async (namespace: string, selector: string): Promise<CoreEvent[]> => {
    const r = await plat.admin.get(`/api/v1/namespaces/${namespace}/events?fieldSelector=${encodeURIComponent(selector)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items as CoreEvent[];
  };
  const waitFor = async (namespace: string, selector: string, what: string): Promise<CoreEvent> => {
    let found: CoreEvent | undefined;
    await until(async () => { found = (await events(namespace, selector))[0]; return found !== undefined; }, what);
    return found!;
  };

  it('<identity> became leader, on the Lease', async () => {
    const e = await waitFor('plat-system', 'reason=LeaderElection', 'the LeaderElection Event');
    const lease = (await plat.admin.get('/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager')).json;
    assert.equal(e.message, `${lease.spec.holderIdentity} became leader`);
    assert.deepEqual([e.type, e.source, e.involvedObject?.kind, e.involvedObject?.name, e.involvedObject?.apiVersion, e.involvedObject?.uid],
      ['Normal', { component: 'plat-controller-manager' }, 'Lease', 'plat-controller-manager', 'coordination.platform/v1', lease.metadata.uid]);
  });

  it('RegisteredNode, NodeNotReady and RemovingNode, on the Node', async () => {
    const old = '2026-01-01T00:00:00Z';
    const created = await plat.admin.post('/api/v1/nodes', {
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'quiet-1' },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'NodeAgentReady', lastHeartbeatTime: old, lastTransitionTime: old }] },
    });
    assert.equal(created.status, 201, created.text);
    const uid = created.json.metadata.uid;
    const registered = await waitFor('default', `involvedObject.name=quiet-1,reason=RegisteredNode`, 'RegisteredNode');
    assert.deepEqual([registered.message, registered.source, registered.involvedObject], [
      'Node quiet-1 event: Registered Node quiet-1 in Controller', { component: 'node-controller' }, { kind: 'Node', name: 'quiet-1', uid, apiVersion: 'v1' },
    ]);
    // No heartbeat for longer than the grace period: the controller marks it Unknown.
    const notReady = await waitFor('default', `involvedObject.uid=${uid},reason=NodeNotReady`, 'NodeNotReady');
    assert.equal(notReady.message, 'Node quiet-1 status is now: NodeNotReady');
    assert.equal((await plat.admin.delete('/api/v1/nodes/quiet-1')).status, 200);
    const removing = await waitFor('default', `involvedObject.uid=${uid},reason=RemovingNode`, 'RemovingNode');
    assert.equal(removing.message, 'Node quiet-1 event: Removing Node quiet-1 from Controller');
  });
});
