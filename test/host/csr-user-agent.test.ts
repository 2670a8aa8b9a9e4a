// The User-Agent `plat csr` sends, as a real plat API server receives it: client-go's
// DefaultKubernetesUserAgent for a binary named `plat`, as kubectl sends its own
// (`kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07`), with plat's version.Info: the GitVersion up
// to its first '-', Go's names for the platform, the commit (`plat`) as `platform/<commit>`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { agentsSeen } from '../helpers/agents-seen.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const AGENT = `plat/v1.32.0+plat.${version.split('-')[0]} (${process.platform}/${GO_ARCH[process.arch] ?? process.arch}) platform/plat`;

describe("plat csr's User-Agent", () => {
  // The requests for CSRs: with no controllers running, only the command makes them.
  const agents = agentsSeen((req) => req.path.startsWith(CSRS));
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers='], plugins: [agents.plugin] }); });
  after(async () => { await plat?.stop(); });

  it('list and get send the default agent of a binary named plat', async () => {
    const env = { PLATCONFIG: '', KUBECONFIG: '' };
    const listed = await runPlatAsync(['csr', 'list', '--kubeconfig', plat.kubeconfig], { env });
    assert.equal(listed.code, 0, listed.stderr);
    const got = await runPlatAsync(['csr', 'get', 'absent', '--kubeconfig', plat.kubeconfig], { env });
    assert.equal(got.code, 1, got.stderr);
    assert.deepEqual(agents.seen.map((s) => [s.method, s.path.replace(CSRS, '<csrs>'), s.agent]), [['GET', '<csrs>', AGENT], ['GET', '<csrs>/absent', AGENT]]);
  });
});
