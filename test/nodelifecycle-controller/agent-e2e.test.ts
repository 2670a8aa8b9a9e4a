// End to end: the real `plat all` process (its embedded node lifecycle controller on a short
// --node-monitor-grace-period) and a real `plat nodeagent` that bootstraps, registers and renews
// its Lease. Killed (SIGKILL: no goodbye), its Node goes NotReady in `kubectl get nodes` (Ready
// Unknown, unreachable NoSchedule taint; no NoExecute one, as the only node down is the whole
// cluster down); started again, it is Ready and untainted.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBootstrapToken } from '../helpers/bootstrap-token.js';
import { Kubectl } from '../helpers/kubectl.js';
import { agentDirs, startAgent, type AgentProcess } from '../helpers/nodeagent-process.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const NODE = 'edge-e2e';

describe('node lifecycle controller with a real node agent', () => {
  let plat: RunningPlat & { output: () => string };
  let agent: AgentProcess | undefined;
  const root = tempDir('plat-nlc-e2e-');
  before(async () => {
    plat = await startProcess({ args: ['--enable-bootstrap-token-auth', '--node-monitor-grace-period=4s', '--node-monitor-period=500ms', '-v=2'] });
  });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  const node = async () => (await plat.admin.get(`/api/v1/nodes/${NODE}`)).json;
  const ready = (n: any) => n?.status?.conditions?.find((c: any) => c.type === 'Ready');
  const taints = (n: any) => (n?.spec?.taints ?? []).map((t: any) => `${t.key}:${t.effect}`);
  const kubectlStatus = async (k: Kubectl) => {
    const r = await k.run(['get', 'nodes', NODE, '--no-headers']);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim().split(/\s+/)[1];
  };

  it('marks the node NotReady when its agent dies and Ready again when it is back', async () => {
    const token = await createBootstrapToken(plat.admin);
    const dirs = await agentDirs(path.join(root, NODE), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token,
      { nodeLeaseDurationSeconds: 4, nodeStatusUpdateFrequency: '1s' });
    agent = startAgent(dirs, NODE);
    await agent.waitFor(/Successfully registered node/);
    await until(async () => ready(await node())?.status === 'True', 'the node Ready', 200);
    const kubectl = new Kubectl(plat.kubeconfig);
    assert.equal(await kubectlStatus(kubectl), 'Ready');

    agent.child.kill('SIGKILL');
    await agent.stop();
    const down = await until(async () => {
      const n = await node();
      return ready(n)?.status === 'Unknown' && taints(n).includes('node.platform/unreachable:NoSchedule') ? n : undefined;
    }, 'the node Unknown and tainted', 200);
    assert.deepEqual([ready(down).reason, ready(down).message], ['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    assert.deepEqual(taints(down), ['node.platform/unreachable:NoSchedule']);
    assert.equal(await kubectlStatus(kubectl), 'NotReady');
    assert.match(plat.output(), /Controller detected that all Nodes are not-Ready. Entering master disruption mode/);

    agent = startAgent(dirs, NODE);
    const back = await until(async () => {
      const n = await node();
      return ready(n)?.status === 'True' && taints(n).length === 0 ? n : undefined;
    }, 'the node Ready and untainted again', 200);
    assert.equal(ready(back).reason, 'NodeAgentReady');
    assert.equal(await kubectlStatus(kubectl), 'Ready');
    // The taints go with the node's update event; the mode with the next health pass.
    await until(async () => /Controller detected that some Nodes are Ready. Exiting master disruption mode/.test(plat.output()), 'disruption mode left');
  });
});
