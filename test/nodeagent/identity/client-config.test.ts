// Which credentials the node agent starts from (upstream's LoadClientConfig and
// buildClientCertificateManager, k8s-behaviour §5.4), in-process against `plat all`: with
// --bootstrap-kubeconfig a --platconfig holding only a token is not valid (TLS bootstrap follows);
// without one the kubeconfig is used as it is; a client certificate the kubeconfig names as files
// stays in force until its rotation deadline; one it holds as data is put into the store and
// rotated out at once.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { GO_YAML } from '../../../core/api/go-yaml.js';
import { RestClient } from '../../../core/client/rest-client.js';
import { createLogger } from '../../../core/log.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { makeClientCert } from '../../helpers/certs.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { platCa } from '../../controller-manager/support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('node agent client config (LoadClientConfig)', () => {
  let plat: RunningPlat;
  let caFile: string;
  const root = tempDir('plat-agent-client-config-');
  const agents: InProcessAgent[] = [];
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] });
    caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
  });
  after(async () => { for (const a of agents) await a.stop(); await plat?.stop(); });

  /** Writes --platconfig with `user`, boots an agent for `node`; `bootstrap` adds --bootstrap-kubeconfig. */
  async function start(node: string, user: (token: string) => Record<string, unknown>, bootstrap: boolean) {
    const token = await createBootstrapToken(plat.admin);
    const dirs = await agentDirs(path.join(root, node), plat.url, caFile, token, { enableServer: false, healthzPort: 0 });
    writeFileSync(dirs.kubeconfig, stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'plat', cluster: { server: plat.url, 'certificate-authority': caFile } }],
      users: [{ name: 'u', user: user(token) }], contexts: [{ name: 'c', context: { cluster: 'plat', user: 'u' } }], 'current-context': 'c',
    }, GO_YAML), { mode: 0o600 });
    const lines: string[] = [];
    const agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', node, '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '-v', '2', ...(bootstrap ? ['--bootstrap-kubeconfig', dirs.bootstrap] : [])],
    { cwd: dirs.dir, logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }) });
    agents.push(agent);
    const waitFor = async (text: string) => {
      for (let i = 0; i < 400 && !lines.some((l) => l.includes(text)); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(lines.some((l) => l.includes(text)), `no "${text}" in:\n${lines.join('\n')}`);
    };
    return { dirs, token, lines, agent, waitFor };
  }
  const csrsOf = async (username: string) => ((await plat.admin.get(CSRS)).json.items as any[]).filter((c) => c.spec.username === username);
  const nodeCert = (node: string) => makeClientCert(platCa(plat), `system:node:${node}`, ['system:nodes']);

  it('with --bootstrap-kubeconfig, a token-only kubeconfig is not valid: the node bootstraps a certificate', async () => {
    const { dirs, token, waitFor } = await start('cc1', () => ({ token: 'not-a-certificate' }), true);
    await waitFor(`"unable to load TLS certificates from existing bootstrap client config read from ${dirs.kubeconfig}: data does not contain any valid RSA or ECDSA certificates"`);
    await waitFor('Certificate rotation done');
    assert.equal((await csrsOf(`system:bootstrap:${token.split('.')[0]}`)).length, 1);
    const kc = readFileSync(dirs.kubeconfig, 'utf8');
    assert.match(kc, /client-certificate: .*nodeagent-client-current\.pem/);
    assert.doesNotMatch(kc, /not-a-certificate/);
  });

  it('without --bootstrap-kubeconfig, a token kubeconfig is used as it is', async () => {
    const { dirs, token, agent, lines, waitFor } = await start('cc2', (t) => ({ token: t }), false);
    await waitFor('No bootstrapping requested, will use kubeconfig');
    assert.ok(agent.ctx.api.isSet(), lines.join('\n'));
    assert.equal((await csrsOf(`system:bootstrap:${token.split('.')[0]}`)).length, 0);
    assert.ok(!existsSync(path.join(dirs.certDir, 'nodeagent-client-current.pem')));
  });

  it('a certificate the kubeconfig names as files stays in force until its rotation deadline', async () => {
    const cred = nodeCert('cc3');
    const certFile = path.join(root, 'cc3.crt');
    const keyFile = path.join(root, 'cc3.key');
    writeFileSync(certFile, cred.certificatePem);
    writeFileSync(keyFile, cred.privateKeyPem, { mode: 0o600 });
    const { dirs, agent, lines, waitFor } = await start('cc3', () => ({ 'client-certificate': certFile, 'client-key': keyFile }), true);
    await waitFor('Current kubeconfig file contents are still valid, no bootstrap necessary');
    await waitFor('for next certificate rotation');
    assert.ok(!lines.some((l) => l.includes('Rotating certificates')), lines.join('\n'));
    assert.ok(agent.ctx.api.isSet());
    assert.ok(!existsSync(path.join(dirs.certDir, 'nodeagent-client-current.pem')), 'nothing written to the store');
    assert.equal((await csrsOf('system:node:cc3')).length, 0);
  });

  it('with rotation, the node\'s client is rest.AnonymousClientConfig of the kubeconfig with the certificate: an `as` there is not sent', async () => {
    const cred = nodeCert('cc5');
    const certFile = path.join(root, 'cc5.crt');
    const keyFile = path.join(root, 'cc5.key');
    writeFileSync(certFile, cred.certificatePem);
    writeFileSync(keyFile, cred.privateKeyPem, { mode: 0o600 });
    const { agent, lines } = await start('cc5', () => ({ 'client-certificate': certFile, 'client-key': keyFile, as: 'alice', 'as-groups': ['team'] }), false);
    for (let i = 0; i < 400 && !agent.ctx.api.isSet(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(agent.ctx.api.isSet(), lines.join('\n'));
    const review = await agent.ctx.api.get()!.request<any>('POST', '/apis/authentication.platform/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' } });
    assert.equal(review.status.userInfo.username, 'system:node:cc5');
    assert.deepEqual(review.status.userInfo.groups, ['system:nodes', 'system:authenticated']);
  });

  it('the certificate manager\'s renewal with a current certificate goes as clientConfig itself, its `as` kept (buildClientCertificateManager)', async () => {
    const cred = nodeCert('cc6');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const { lines } = await start('cc6', () => ({ 'client-certificate-data': b64(cred.certificatePem), 'client-key-data': b64(cred.privateKeyPem), as: 'carol' }), false);
    for (let i = 0; i < 400 && (await csrsOf('carol')).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await csrsOf('carol')).length, 1, lines.join('\n'));
    assert.equal((await csrsOf('system:node:cc6')).length, 0);
  });

  it('the renewal client of an impersonating kubeconfig is closed when the node agent stops, as the bootstrap one is', async () => {
    // The client that POSTs cc7's CSR (its CN is in the request) must be closed by the stop: an
    // open one keeps its keep-alive connections to the API server past the node agent's life.
    const proto = RestClient.prototype;
    const { request, close } = proto;
    const posted = new Set<RestClient>();
    const closed = new Set<RestClient>();
    proto.request = function (this: RestClient, method: string, p: string, o?: { body?: unknown }) {
      const spec = (o?.body as { spec?: { request?: string } } | undefined)?.spec;
      const pem = spec?.request ? Buffer.from(spec.request, 'base64').toString() : '';
      const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s/g, ''), 'base64');
      if (method === 'POST' && der.includes('system:node:cc7')) posted.add(this);
      return request.call(this, method, p, o);
    } as typeof request;
    proto.close = function (this: RestClient) { closed.add(this); close.call(this); };
    try {
      const cred = nodeCert('cc7');
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const { agent, lines } = await start('cc7', () => ({ 'client-certificate-data': b64(cred.certificatePem), 'client-key-data': b64(cred.privateKeyPem), as: 'dave' }), false);
      for (let i = 0; i < 400 && (await csrsOf('dave')).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal((await csrsOf('dave')).length, 1, lines.join('\n'));
      assert.equal(posted.size, 1);
      await agent.stop();
      const [renewer] = posted;
      for (let i = 0; i < 100 && !closed.has(renewer!); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(closed.has(renewer!), 'the client that renewed as dave is still open');
    } finally {
      proto.request = request;
      proto.close = close;
    }
  });

  it('a certificate the kubeconfig holds as data is put into the store and rotated out at once', async () => {
    const cred = nodeCert('cc4');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const { dirs, waitFor } = await start('cc4', () => ({ 'client-certificate-data': b64(cred.certificatePem), 'client-key-data': b64(cred.privateKeyPem) }), false);
    await waitFor('platform/apiserver-client-nodeagent: Rotating certificates');
    const current = path.join(dirs.certDir, 'nodeagent-client-current.pem');
    const serial = (pem: string) => new X509Certificate(pem).serialNumber;
    const stored = readFileSync(readlinkSync(current), 'utf8');
    await waitFor('Certificate rotation done');
    assert.ok(lstatSync(current).isSymbolicLink());
    const issued = readFileSync(current, 'utf8');
    assert.notEqual(serial(issued), serial(cred.certificatePem), 'replaced by an issued one');
    // The kubeconfig's certificate was the store's first (unless the rotation was already done when looked at).
    if (stored !== issued) assert.equal(serial(stored), serial(cred.certificatePem));
    assert.equal((await csrsOf('system:node:cc4')).length, 1);
  });
});
