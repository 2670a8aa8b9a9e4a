// The node subsystem inside a real `plat nodeagent` process against
// a real `plat all` with Node,RBAC and NodeRestriction: from a bootstrap token to a client
// certificate (the identity subsystem), then the Node registered and its Lease kept fresh with that
// certificate. The agent is given --node-ip 127.0.0.1, which upstream refuses as a node address:
// the Node registers without addresses and the log says why.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { agentDirs, startAgent } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { eventually } from './support.js';

const WEBHOOKS = { authentication: { webhook: { enabled: true } }, authorization: { mode: 'Webhook' } };

describe('the node subsystem in plat nodeagent', () => {
  let plat: RunningPlat;
  let token: string;
  const root = tempDir('plat-agent-node-');
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'] });
    token = await createBootstrapToken(plat.admin);
  });
  after(async () => { await plat?.stop(); });

  it('bootstraps, registers its Node as system:node:<name> and renews its Lease', async () => {
    const dirs = await agentDirs(path.join(root, 'edge-a'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token,
      { ...WEBHOOKS, nodeLeaseDurationSeconds: 4, registerWithTaints: [{ key: 'edge', effect: 'NoSchedule' }] });
    const agent = startAgent(dirs, 'edge-a', ['--node-labels', 'nodeagent.platform/pool=edge']);
    try {
      await agent.waitFor(/Successfully registered node/);
      const node = await eventually(async () => {
        const r = await plat.admin.get('/api/v1/nodes/edge-a');
        return r.status === 200 && r.json.status?.conditions ? r.json : undefined;
      }, 'the Node with its status');
      assert.equal(node.metadata.labels['platform/hostname'], 'edge-a');
      assert.equal(node.metadata.labels['nodeagent.platform/pool'], 'edge');
      assert.deepEqual(node.spec.taints, [{ key: 'edge', effect: 'NoSchedule' }]);
      assert.equal(node.status.conditions.find((c: any) => c.type === 'Ready').reason, 'NodeAgentReady');
      assert.equal(node.status.daemonEndpoints.kubeletEndpoint.Port, dirs.port);
      assert.equal(node.status.addresses, undefined);
      assert.match(agent.output(), /failed to validate nodeIP: nodeIP can't be loopback address/);

      const leasePath = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases/edge-a';
      const lease = await eventually(async () => {
        const r = await plat.admin.get(leasePath);
        return r.status === 200 ? r.json : undefined;
      }, 'the Lease');
      assert.deepEqual([lease.spec.holderIdentity, lease.spec.leaseDurationSeconds], ['edge-a', 4]);
      assert.deepEqual(lease.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'edge-a', uid: node.metadata.uid }]);
      await eventually(async () => ((await plat.admin.get(leasePath)).json.spec.renewTime !== lease.spec.renewTime ? true : undefined), 'a renewal');
    } finally {
      assert.equal(await agent.stop(), 0, agent.output());
    }
  });
});
