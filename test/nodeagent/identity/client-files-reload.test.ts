// Without rotateCertificates, the client certificate and key the --platconfig kubeconfig names as
// files are followed while the agent runs, as client-go re-reads them (ReloadTLSFiles; the API
// client looks before a request when its last look is over a second old): a rewritten
// pair is presented to the API server from then on (SelfSubjectReview answers with the new user),
// a mismatched one is logged with client-go's text and the current certificate kept. So is the
// store's current file a TLS bootstrap without rotation left the kubeconfig naming. Against a
// real `plat all` on 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import type { RestClient } from '../../../core/client/rest-client.js';
import { runClientIdentity } from '../../../plugins/nodeagent-identity/client-identity.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { makeClientCert, type TestCredential } from '../../helpers/certs.js';
import { writeBootstrapKubeconfig } from '../../helpers/nodeagent-process.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { Logs, until } from '../../csrsigning/support.js';
import { platCa } from '../../controller-manager/support.js';

let plat: RunningPlat;
before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] }); });
after(async () => { await plat?.stop(); });

/** runClientIdentity with rotation off and `args`, until the API client is set; stop() ends it. */
async function runIdentity(args: string[], logs: Logs): Promise<{ api: RestClient; whoAmI: () => Promise<string>; stop: () => Promise<void> }> {
  const flags = new Flags();
  for (const name of ['platconfig', 'bootstrap-kubeconfig', 'cert-dir']) flags.define({ name, type: 'string', section: '', help: '' });
  flags.parse(args);
  const ctx = nodeAgentTestContext({ flags, logger: logs.logger, config: { rotateCertificates: false } });
  const stop = new AbortController();
  const identity = runClientIdentity(ctx, { version: 'test', exit: (reason) => { throw new Error(`exit requested: ${reason}`); } }, stop.signal);
  const api = await ctx.api.wait(AbortSignal.timeout(20_000));
  return {
    api,
    whoAmI: async () => {
      const r = await api.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.platform/v1/selfsubjectreviews',
        { body: { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' } });
      return r.status.userInfo.username;
    },
    stop: async () => { stop.abort(); await identity; api.close(); },
  };
}

const node = (cn: string) => makeClientCert(platCa(plat), cn, ['system:nodes']);

/**
 * Whether the agent now presents `name`. A new pair closes the connections of the old one, as
 * client-go's transport closes them on rotation, so a review in flight then is reset: asked again.
 */
async function presents(agent: { whoAmI(): Promise<string> }, name: string): Promise<boolean> {
  try {
    return await agent.whoAmI() === name;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ECONNRESET') return false;
    throw e;
  }
}

describe('node agent client identity: kubeconfig certificate files changed while running, rotation off', () => {
  const dir = tempDir();
  const certFile = path.join(dir, 'node.crt');
  const keyFile = path.join(dir, 'node.key');
  const logs = new Logs();
  let agent: Awaited<ReturnType<typeof runIdentity>>;
  let second: TestCredential;
  let third: TestCredential;

  before(async () => {
    const first = node('system:node:n1');
    [second, third] = [node('system:node:n1-rewritten'), node('system:node:n1-third')];
    writeFileSync(certFile, first.certificatePem);
    writeFileSync(keyFile, first.privateKeyPem);
    const kubeconfig = path.join(dir, 'nodeagent.conf');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config',
      'clusters:', `- name: c`, '  cluster:', `    server: ${plat.url}`, `    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}`,
      'users:', '- name: u', '  user:', '    client-certificate: node.crt', '    client-key: node.key',
      'contexts:', '- name: x', '  context: {cluster: c, user: u}', 'current-context: x', '',
    ].join('\n'));
    agent = await runIdentity(['--platconfig', kubeconfig, '--cert-dir', path.join(dir, 'pki')], logs);
  });
  after(() => agent?.stop());

  it('presents the rewritten pair to the API server', async () => {
    assert.equal(await agent.whoAmI(), 'system:node:n1');
    writeFileSync(keyFile, second.privateKeyPem);
    writeFileSync(certFile, second.certificatePem);
    await until(() => presents(agent, 'system:node:n1-rewritten'), 'the API server to see the new certificate');
  });

  it('keeps the current certificate when the files are rewritten mismatched, and says why', async () => {
    writeFileSync(keyFile, third.privateKeyPem);
    // The files are looked at before a request (and every 5 minutes), as client-go looks at them.
    await until(async () => (await presents(agent, 'system:node:n1-rewritten'), logs.has('key failed with : tls: private key does not match public key')),
      'the mismatched pair to be refused');
    assert.equal(await agent.whoAmI(), 'system:node:n1-rewritten');
    writeFileSync(certFile, third.certificatePem);
    await until(() => presents(agent, 'system:node:n1-third'), 'the pair made whole again to be presented');
  });
});

describe('node agent client identity: the store\'s current file after a TLS bootstrap, rotation off', () => {
  const dir = tempDir();
  const certDir = path.join(dir, 'pki');
  let agent: Awaited<ReturnType<typeof runIdentity>>;

  before(async () => {
    const bootstrap = path.join(dir, 'bootstrap.conf');
    writeBootstrapKubeconfig(bootstrap, plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), await createBootstrapToken(plat.admin));
    agent = await runIdentity(['--platconfig', path.join(dir, 'nodeagent.conf'), '--bootstrap-kubeconfig', bootstrap, '--cert-dir', certDir], new Logs());
  });
  after(() => agent?.stop());

  it('presents the certificate an operator swaps in at nodeagent-client-current.pem', async () => {
    assert.match(await agent.whoAmI(), /^system:node:/);
    const swapped = node('system:node:swapped-in');
    const file = path.join(certDir, 'operator.pem');
    writeFileSync(file, swapped.certificatePem + swapped.privateKeyPem);
    symlinkSync(file, path.join(certDir, 'swap.tmp'));
    renameSync(path.join(certDir, 'swap.tmp'), path.join(certDir, 'nodeagent-client-current.pem'));
    await until(() => presents(agent, 'system:node:swapped-in'), 'the API server to see the swapped-in certificate');
  });
});
