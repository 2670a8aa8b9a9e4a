// Issue 7's acceptance flow with real processes: `plat all` (API server and controller manager)
// and `plat nodeagent` started from nothing but a bootstrap kubeconfig. The agent gets its client
// certificate (auto-approved), registers its Node and keeps its Lease fresh; its serving CSR stays
// pending until `plat csr approve` (meanwhile every TLS handshake on port 10250's stand-in fails,
// as upstream's, and no self-signed pair is written), after which it presents the issued
// certificate to node:tls and to `openssl s_client`.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createBootstrapToken } from '../helpers/bootstrap-token.js';
import { agentDirs, hostIpv4, startAgent, type AgentProcess } from '../helpers/nodeagent-process.js';
import { runOpenssl } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function presented(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, servername: 'localhost' }, () => {
      const raw = s.getPeerCertificate().raw;
      s.end();
      resolve(new X509Certificate(raw));
    });
    s.on('error', reject);
  });
}

describe('node agent end to end (plat all + plat nodeagent)', () => {
  let plat: RunningPlat;
  let agent: AgentProcess | undefined;
  const root = tempDir('plat-e2e-agent-');
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('bootstraps, registers its Node, renews its Lease; no serving certificate until approval, then the issued one', async () => {
    const token = await createBootstrapToken(plat.admin);
    const caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
    const dirs = await agentDirs(path.join(root, 'e1'), plat.url, caFile, token, { serverTLSBootstrap: true });
    agent = startAgent(dirs, 'e1', ['--node-ip', hostIpv4()]);
    await agent.waitFor(/Certificate rotation done/);

    // The Node and its Lease.
    let node: any;
    for (let i = 0; i < 300 && !node; i++) {
      const r = await plat.admin.get('/api/v1/nodes/e1');
      if (r.status === 200) node = r.json; else await sleep(100);
    }
    assert.ok(node, 'the Node is registered');
    assert.equal(node.metadata.labels['platform/hostname'], 'e1');
    const ip = hostIpv4();
    assert.ok(node.status.addresses.some((a: any) => a.type === 'InternalIP' && a.address === ip), JSON.stringify(node.status.addresses));
    const leasePath = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases/e1';
    let lease: any;
    // A Lease is created once its owner (the Node) can be read, else on the next 10 s renewal.
    for (let i = 0; i < 300 && !lease; i++) {
      const r = await plat.admin.get(leasePath);
      if (r.status === 200) lease = r.json; else await sleep(100);
    }
    assert.ok(lease, 'the Lease exists');
    assert.equal(lease.spec.holderIdentity, 'e1');
    assert.equal(lease.spec.leaseDurationSeconds, 40);

    // The serving CSR: created by the node, never auto-approved.
    let serving: any;
    for (let i = 0; i < 300 && !serving; i++) {
      serving = ((await plat.admin.get(CSRS)).json.items as any[]).find((c) => c.spec.signerName === 'platform/nodeagent-serving' && c.spec.username === 'system:node:e1');
      if (!serving) await sleep(100);
    }
    assert.ok(serving, 'a serving CSR was created');
    await sleep(1500); // the approving controller has seen it by now
    const pending = (await plat.admin.get(`${CSRS}/${serving.metadata.name}`)).json;
    assert.equal(pending.status?.conditions, undefined, `still pending: ${JSON.stringify(pending.status)}`);
    await assert.rejects(presented(dirs.port), /handshake failure|alert/i, 'no certificate until approval');
    const refused = runOpenssl(['s_client', '-connect', `127.0.0.1:${dirs.port}`], { input: '' });
    assert.match(refused.stdout + refused.stderr, /no peer certificate available/);
    await agent.waitFor(/http: TLS handshake error from 127\.0\.0\.1:\d+: no serving certificate available for the nodeagent/);
    assert.equal(existsSync(path.join(dirs.certDir, 'nodeagent.crt')), false, 'no self-signed pair is written');

    const approve = await runPlatAsync(['csr', 'approve', serving.metadata.name, '--kubeconfig', plat.kubeconfig]);
    assert.equal(approve.code, 0, approve.stderr);
    let issued: X509Certificate | undefined;
    for (let i = 0; i < 300 && !issued; i++) {
      // Until the agent has the issued certificate in place its handshakes still fail.
      const c = await presented(dirs.port).catch(() => undefined);
      if (c?.subject.includes('system:node:e1')) issued = c; else await sleep(100);
    }
    assert.ok(issued, 'the issued certificate is served on the same port');
    assert.ok(issued.checkIssued(new X509Certificate(await import('node:fs').then((fs) => fs.readFileSync(caFile)))), 'issued by the cluster CA');
    assert.ok((issued.subjectAltName ?? '').includes(`IP Address:${ip}`), issued.subjectAltName);
    const sclient = runOpenssl(['s_client', '-connect', `127.0.0.1:${dirs.port}`, '-CAfile', caFile, '-verify_return_error'], { input: '' });
    assert.match(sclient.stdout, /subject=.*CN\s*=\s*system:node:e1/);
    assert.match(sclient.stdout, /Verify return code: 0 \(ok\)/);

    // The Lease keeps being renewed (every 10 s for a 40 s lease).
    const renewed = lease.spec.renewTime;
    let later = renewed;
    for (let i = 0; i < 300 && later === renewed; i++) {
      await sleep(100);
      later = (await plat.admin.get(leasePath)).json.spec.renewTime;
    }
    assert.notEqual(later, renewed, 'the Lease was renewed');
  });
});
