// Issue 7's identity items end to end: `plat nodeagent` (a real process) from nothing but a
// bootstrap kubeconfig gets its client certificate (auto-approved), writes upstream's file layout
// and its kubeconfig, and reuses both after a restart without a new CSR; a denied bootstrap CSR
// and a missing bootstrap kubeconfig are clear failures.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { agentDirs, startAgent } from '../../helpers/nodeagent-process.js';
import { runOpenssl } from '../../helpers/openssl.js';
import { makeClientCert } from '../../helpers/certs.js';
import { platCa } from '../../controller-manager/support.js';
import { bootstrapCluster, writeNodeKubeconfig } from '../../../plugins/nodeagent-identity/kubeconfig-files.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const WEBHOOKS = { authentication: { webhook: { enabled: true } }, authorization: { mode: 'Webhook' } };

describe('node agent TLS bootstrap (plat all + plat nodeagent)', () => {
  let plat: RunningPlat;
  let token: string;
  const root = tempDir('plat-agent-bootstrap-');
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] });
    token = await createBootstrapToken(plat.admin);
  });
  after(async () => { await plat?.stop(); });

  /** The node-client CSRs the bootstrap token's user made. */
  const bootstrapCsrs = async () => ((await plat.admin.get(CSRS)).json.items as any[])
    .filter((c) => c.spec.username === `system:bootstrap:${token.split('.')[0]}` && c.spec.signerName === 'platform/apiserver-client-nodeagent');

  it('bootstraps a client certificate, writes the files and kubeconfig, and reuses them after a restart', async () => {
    const caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
    const dirs = await agentDirs(path.join(root, 'n1'), plat.url, caFile, token, WEBHOOKS);
    const agent = startAgent(dirs, 'n1');
    try {
      await agent.waitFor(/Certificate rotation done/);
      // Upstream's transport says when it starts using the first certificate of a bootstrap.
      await agent.waitFor(/Certificate rotation detected, shutting down client connections to start using new credentials/);
    } finally {
      assert.equal(await agent.stop(), 0, agent.output());
    }
    // Files (k8s-behaviour §5.3): a dated 0600 file and an absolute -current symlink to it.
    const current = path.join(dirs.certDir, 'nodeagent-client-current.pem');
    assert.ok(lstatSync(current).isSymbolicLink());
    const target = readlinkSync(current);
    assert.ok(path.isAbsolute(target), target);
    assert.match(path.basename(target), /^nodeagent-client-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.pem$/);
    assert.equal(statSync(target).mode & 0o777, 0o600);
    assert.equal(statSync(dirs.certDir).mode & 0o777, 0o700, 'the cert dir the agent created is private');
    const pem = readFileSync(current, 'utf8');
    assert.match(pem, /-----BEGIN CERTIFICATE-----[\s\S]*-----BEGIN EC PRIVATE KEY-----/);
    const verify = runOpenssl(['verify', '-purpose', 'sslclient', '-CAfile', path.join(plat.dataDir, 'pki', 'ca.crt'), current]);
    assert.equal(verify.status, 0, verify.stderr + verify.stdout);
    const subject = runOpenssl(['x509', '-noout', '-subject', '-in', current]).stdout;
    assert.match(subject, /CN\s*=\s*system:node:n1/);
    assert.match(subject, /O\s*=\s*system:nodes/);
    // The kubeconfig (§5.4).
    const kc = parseYaml(readFileSync(dirs.kubeconfig, 'utf8'));
    assert.equal(statSync(dirs.kubeconfig).mode & 0o777, 0o600);
    assert.equal(kc['current-context'], 'default-context');
    assert.equal(kc.users[0].name, 'default-auth');
    assert.equal(kc.users[0].user['client-certificate'], current);
    assert.equal(kc.users[0].user['client-key'], current);
    assert.equal(kc.clusters[0].cluster['certificate-authority'], caFile);
    assert.equal(kc.clusters[0].cluster.server, plat.url.replace(/\/$/, ''));
    const before = (await bootstrapCsrs()).length;
    assert.equal(before, 1, 'one bootstrap CSR');

    // Restart: the certificate in force is reused, no new CSR.
    const again = startAgent(dirs, 'n1');
    try {
      // certificate_store.go's V0 line, then the manager's V(2) wait.
      await again.waitFor(new RegExp(`Loading cert/key pair from "${current}"\\.`));
      await again.waitFor(/for next certificate rotation/);
    } finally {
      assert.equal(await again.stop(), 0, again.output());
    }
    // The certificate it started with is no rotation.
    assert.doesNotMatch(again.output(), /Certificate rotation detected/);
    assert.equal((await bootstrapCsrs()).length, 1, 'no new CSR after the restart');
    assert.equal(readlinkSync(current), target, 'the same certificate file');
    assert.equal(readdirSync(dirs.certDir).filter((f) => f.startsWith('nodeagent-client-2')).length, 1);
  });

  it('fails clearly without a usable kubeconfig or bootstrap kubeconfig', async () => {
    const caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
    const dirs = await agentDirs(path.join(root, 'n2'), plat.url, caFile, token, WEBHOOKS);
    const agent = startAgent(dirs, 'n2', ['--bootstrap-kubeconfig', path.join(root, 'missing.conf')]);
    const code = await new Promise<number | null>((r) => agent.child.on('exit', r));
    assert.equal(code, 1, agent.output());
    assert.match(agent.output(), /unable to load bootstrap kubeconfig: .*missing\.conf/);
    assert.ok(!existsSync(path.join(dirs.certDir, 'nodeagent-client-current.pem')));
  });

  // The kubeconfig TLS bootstrap wrote names nodeagent-client-current.pem; what upstream says of
  // the file decides: one that holds no certificate sends the node to bootstrap (which then cannot
  // read the store), a certificate with another key keeps the kubeconfig (client-go reads files
  // only at a handshake); either way the certificate manager cannot start and no CSR is sent.
  const unusable: [string, (a: { cert: string; key: string }, b: { cert: string; key: string }) => string, RegExp[]][] = [
    ['garbage', () => 'garbage\n', [
      /unable to load TLS certificates from existing bootstrap client config read from \S+nodeagent\.conf: data does not contain any valid RSA or ECDSA certificates/,
      /failed to initialize client certificate manager: could not convert data from "\S+nodeagent-client-current\.pem" into cert\/key pair: tls: failed to find any PEM data in certificate input/]],
    ['mismatch', (a, b) => a.cert + b.key, [
      /Current kubeconfig file contents are still valid, no bootstrap necessary/,
      /failed to initialize client certificate manager: could not convert data from "\S+nodeagent-client-current\.pem" into cert\/key pair: tls: private key does not match public key/]],
  ];
  for (const [name, content, expected] of unusable) {
    it(`stops at start-up, sending no CSR, when the stored client certificate cannot be read (${name})`, async () => {
      const caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
      const dirs = await agentDirs(path.join(root, `n-${name}`), plat.url, caFile, token, WEBHOOKS);
      mkdirSync(dirs.certDir, { recursive: true });
      const current = path.join(dirs.certDir, 'nodeagent-client-current.pem');
      const pair = () => { const c = makeClientCert(platCa(plat), 'system:node:n-x', ['system:nodes']); return { cert: c.certificatePem, key: c.privateKeyPem }; };
      writeFileSync(current, content(pair(), pair()));
      await writeNodeKubeconfig(dirs.kubeconfig, bootstrapCluster(dirs.bootstrap), current);
      const kubeconfig = readFileSync(dirs.kubeconfig, 'utf8');
      const before = (await plat.admin.get(CSRS)).json.items.length;
      const agent = startAgent(dirs, `n-${name}`, []);
      // Bounded: an agent that goes on (requesting certificates it cannot store) fails the test.
      const code = await Promise.race([
        new Promise<number | null>((r) => agent.child.on('exit', r)),
        new Promise<string>((r) => setTimeout(() => { agent.child.kill(); r('still running after 20s'); }, 20_000).unref()),
      ]);
      assert.equal(code, 1, agent.output());
      for (const re of expected) assert.match(agent.output(), re);
      if (name === 'mismatch') {
        assert.doesNotMatch(agent.output(), /Use the bootstrap credentials/, 'no bootstrap');
        assert.equal(readFileSync(dirs.kubeconfig, 'utf8'), kubeconfig);
      }
      assert.equal((await plat.admin.get(CSRS)).json.items.length, before, 'no CSR sent');
    });
  }
});
