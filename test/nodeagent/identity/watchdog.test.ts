// The client certificate watchdog (k8s-behaviour §5.7): with no valid certificate for longer than
// the limit while the API server is healthy (here it refuses every request: AlwaysDeny, a 403), the
// agent asks to exit, as upstream's kubelet ends with klog.Fatal so a supervisor restarts it; a
// bootstrap CSR waiting for an operator's approval is not a healthy server, so that agent waits.
// The limit and the check period are shortened through the identity plugin's options.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exitRequested } from '../../../core/lifecycle.js';
import { createLogger } from '../../../core/log.js';
import { identityPlugin } from '../../../plugins/nodeagent-identity/index.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

/** `plat all` with `args` and an in-process agent bootstrapping against it, with a watchdog of 50 ms / 300 ms. */
function watchdogFixture(args: string[]) {
  const f = { plat: undefined as unknown as RunningPlat, agent: undefined as InProcessAgent | undefined, lines: [] as string[] };
  const root = tempDir('plat-agent-watchdog-');
  before(async () => { f.plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', ...args] }); });
  after(async () => { await f.agent?.stop(); await f.plat?.stop(); });
  const start = async (node: string): Promise<InProcessAgent> => {
    const token = await createBootstrapToken(f.plat.admin);
    const dirs = await agentDirs(path.join(root, node), f.plat.url, path.join(f.plat.dataDir, 'pki', 'ca.crt'), token, { enableServer: false, healthzPort: 0 });
    return f.agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', node, '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap],
    { cwd: dirs.dir, logger: createLogger({ write: (l) => f.lines.push(l) }), identity: identityPlugin({ watchdogIntervalMs: 50, watchdogLimitMs: 300 }) });
  };
  return { f, start };
}

describe('node agent client certificate watchdog', () => {
  const { start } = watchdogFixture(['--authorization-mode=AlwaysDeny']);

  it('asks the agent to exit 1 when it has had no certificate for too long and the server answers', async () => {
    const agent = await start('w1');
    const exit = await Promise.race([exitRequested(agent.host), new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000))]);
    assert.ok(exit, 'an exit was requested');
    assert.equal(exit.code, 1);
    assert.match(exit.reason, /no valid client certificate for more than/);
    assert.equal(agent.ctx.api.isSet(), false);
  });
});

describe('node agent client certificate watchdog, CSR pending approval', () => {
  const { f, start } = watchdogFixture(['--controllers=*,-csrapproving']);

  it('keeps waiting past the limit for an operator to approve its CSR', async () => {
    const agent = await start('w2');
    let exited = false;
    void exitRequested(agent.host).then(() => { exited = true; });
    const notResponsive = () => f.lines.some((l) => l.includes('No valid client certificate is found but the server is not responsive'));
    for (let i = 0; i < 100 && !exited && !notResponsive(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(exited, false, f.lines.join('\n'));
    assert.ok(notResponsive(), f.lines.join('\n'));
    assert.ok(f.lines.some((l) => l.includes('Certificate signing request created')), 'the CSR is pending');
  });
});
