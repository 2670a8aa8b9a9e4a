// The client certificate watchdog (k8s-behaviour §5.7): with no valid certificate for longer than
// the limit while the API server answers (here it refuses every request: AlwaysDeny), the agent
// asks to exit, as upstream's kubelet ends with klog.Fatal so a supervisor restarts it. The limit
// and the check period are shortened through the identity plugin's options.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exitRequested } from '../../../core/lifecycle.js';
import { identityPlugin } from '../../../plugins/nodeagent-identity/index.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

describe('node agent client certificate watchdog', () => {
  let plat: RunningPlat;
  let agent: InProcessAgent | undefined;
  const root = tempDir('plat-agent-watchdog-');
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--authorization-mode=AlwaysDeny'] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('asks the agent to exit 1 when it has had no certificate for too long and the server answers', async () => {
    const token = await createBootstrapToken(plat.admin);
    const dirs = await agentDirs(path.join(root, 'w1'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token, { enableServer: false, healthzPort: 0 });
    agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', 'w1', '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap],
    { cwd: dirs.dir, identity: identityPlugin({ watchdogIntervalMs: 50, watchdogLimitMs: 300 }) });
    const exit = await Promise.race([exitRequested(agent.host), new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000))]);
    assert.ok(exit, 'an exit was requested');
    assert.equal(exit.code, 1);
    assert.match(exit.reason, /no valid client certificate for more than/);
    assert.equal(agent.ctx.api.isSet(), false);
  });
});
