// The node agent's User-Agent, as a real plat API server receives it over HTTPS: the kubelet's
// clients (its API client, the bootstrap and rotation clients) set no agent of their own, so each
// sends rest.DefaultKubernetesUserAgent's, `<component>/<gitVersion before any '-'> (<GOOS>/<GOARCH>)
// platform/<commit>` with plat's names. The API server's logs show it to operators.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { agentsSeen } from '../../helpers/agents-seen.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
// startAgentInProcess boots version 0.0.0-test: GitVersion v1.32.0+plat.0.0.0-test, cut at its '-'.
const AGENT = `nodeagent/v1.32.0+plat.0.0.0 (${process.platform}/${GO_ARCH[process.arch] ?? process.arch}) platform/plat`;
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe("the node agent's User-Agent", () => {
  // The requests whose agent names the node agent (the only one in this process).
  const agents = agentsSeen((req, agent) => req.token === undefined && agent.startsWith('nodeagent'));
  let plat: RunningPlat;
  let agent: InProcessAgent | undefined;
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'], plugins: [agents.plugin] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('bootstrapping its client certificate, then as the node: the default agent', async () => {
    const token = await createBootstrapToken(plat.admin);
    const dirs = await agentDirs(path.join(tempDir(), 'ua1'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token, { enableServer: false, healthzPort: 0 });
    agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', 'ua1', '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap], { cwd: dirs.dir });
    // The bootstrap client's CSR, then the node's own requests (its Node, with the new certificate).
    for (let i = 0; i < 200 && !agents.seen.some((s) => s.path.includes('/nodes')); i++) await new Promise((r) => setTimeout(r, 50));
    for (const [what, method, pattern] of [['CSR create', 'POST', new RegExp(`^${CSRS}$`)], ['a Node request', 'GET', /^\/api\/v1\/nodes\//]] as const) {
      assert.ok(agents.seen.some((s) => s.method === method && pattern.test(s.path)), `no ${what}: ${JSON.stringify(agents.seen.slice(0, 10))}`);
    }
    assert.deepEqual([...new Set(agents.seen.map((s) => s.agent))], [AGENT]);
  });
});
