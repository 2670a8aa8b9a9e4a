// A bootstrap identity that may create CSRs but not list or watch them (`plat all` with RBAC, the
// bootstrappers' binding swapped for a create-only role): the agent waits for its one CSR,
// retrying the refused list every second (upstream's WaitForCertificate: an informer retries
// until the 15-minute deadline), instead of ending the wait and sending a new CSR on every
// backoff step; once the identity may list, that CSR's certificate is taken.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../../core/log.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const RBAC = '/apis/rbac.authorization.platform/v1';
const BOOTSTRAP_BINDING = 'plat:nodeagent-bootstrap';
const bootstrappers = [{ apiGroup: 'rbac.authorization.platform', kind: 'Group', name: 'system:bootstrappers' }];

describe('node agent bootstrap when the CSR list is refused', () => {
  let plat: RunningPlat;
  let agent: InProcessAgent | undefined;
  const lines: string[] = [];
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--authorization-mode=Node,RBAC'] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  const post = async (p: string, body: unknown) => { const r = await plat.admin.post(p, body); assert.equal(r.status, 201, r.text); };
  const binding = (name: string, role: string) => ({
    apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: role }, subjects: bootstrappers,
  });
  const count = (text: string) => lines.filter((l) => l.includes(text)).length;
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(check(), `no ${what} in:\n${lines.join('\n')}`);
  };

  it('retries the refused list and keeps its one CSR until it may list', async () => {
    const token = await createBootstrapToken(plat.admin);
    const csrs = async () => ((await plat.admin.get(CSRS)).json.items as any[]).filter((c) => c.spec.username === `system:bootstrap:${token.split('.')[0]}`);
    // Create only: the list and watch of the wait are refused with 403.
    assert.equal((await plat.admin.delete(`${RBAC}/clusterrolebindings/${BOOTSTRAP_BINDING}`)).status, 200);
    await post(`${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'test:csr-create-only' },
      rules: [{ apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests'], verbs: ['create'] }],
    });
    await post(`${RBAC}/clusterrolebindings`, binding('test:csr-create-only', 'test:csr-create-only'));

    const root = tempDir('plat-agent-list-refused-');
    const dirs = await agentDirs(path.join(root, 'lr1'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token, { enableServer: false, healthzPort: 0 });
    agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', 'lr1', '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap, '-v', '2'],
    { cwd: dirs.dir, logger: createLogger({ write: (l) => lines.push(l) }) });

    await until(() => count('error fetching v1 certificate signing request') >= 3, 'three retried lists');
    assert.match(lines.find((l) => l.includes('error fetching v1 certificate signing request'))!, /is forbidden: User "system:bootstrap:[0-9a-f]+" cannot list resource "certificatesigningrequests"/);
    assert.equal(count('certificate request was not signed'), 0, lines.join('\n'));
    const sent = await csrs();
    assert.equal(sent.length, 1, 'one CSR');
    assert.ok(sent[0].status?.certificate, 'auto-approved and issued meanwhile');

    await post(`${RBAC}/clusterrolebindings`, binding(BOOTSTRAP_BINDING, 'system:node-bootstrapper'));
    await until(() => count('Certificate rotation done') === 1, 'the rotation');
    assert.equal((await csrs()).length, 1, 'still one CSR');
    assert.match(lines.find((l) => l.includes('Certificate rotation done'))!, new RegExp(`csr="${sent[0].metadata.name}"`));
  });
});
