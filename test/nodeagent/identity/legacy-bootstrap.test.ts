// TLS bootstrap without rotateCertificates (k8s-behaviour §5.3, §5.4 item 5): upstream's legacy
// LoadClientCert. `plat nodeagent` (real processes) against `plat all` without its auto-approver,
// so the CSR waits: killed (SIGKILL) while it waits and restarted, the agent keeps its key in
// nodeagent-client.key.tmp and finds its own CSR under the same deterministic name, so one CSR
// exists; once an operator approves it the certificate is stored, the temporary key removed and
// the kubeconfig written, which the next start keeps. The CSR name is recomputed here from upstream's digestedName as the spec
// states it (never through plat's code), for a P-256 key the agent made and an RSA key put there
// first (key encipherment comes last in the hashed usages then). A CSR already under that name
// that is not the agent's (another signer or subject) stops it with upstream's error.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { agentDirs, startAgent, type AgentProcess } from '../../helpers/nodeagent-process.js';
import { openssl } from '../../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const CONFIG = { rotateCertificates: false, enableServer: false, healthzPort: 0 };

/** digestedName: base64url (no padding) of each part, each followed by `|`, through SHA-512/256. */
function expectedName(keyPem: string, node: string, usages: string[]): string {
  const h = createHash('sha512-256');
  const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
  for (const part of [spki, Buffer.from(`system:node:${node}`), Buffer.from('system:nodes'), ...usages.map((u) => Buffer.from(u))]) {
    h.update(part.toString('base64url'));
    h.update('|');
  }
  return `node-csr-${h.digest('base64url')}`;
}

/** Polls `check` every 100 ms, for at most `ms`. */
async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = await check();
    if (v) return v;
  }
  throw new Error(`no ${what} within ${ms} ms`);
}

describe('node agent legacy TLS bootstrap (rotateCertificates false)', () => {
  let plat: RunningPlat;
  let token: string;
  let caFile: string;
  const root = tempDir('plat-agent-legacy-');
  const agents: AgentProcess[] = [];
  const start = (dirs: Parameters<typeof startAgent>[0], node: string) => {
    const a = startAgent(dirs, node);
    agents.push(a);
    return a;
  };
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--controllers=*,-csrapproving'] });
    token = await createBootstrapToken(plat.admin);
    caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
  });
  after(async () => {
    for (const a of agents) if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
    await plat?.stop();
  });

  const csrsOf = async (node: string) => ((await plat.admin.get(CSRS)).json.items as any[])
    .filter((c) => c.spec.signerName === 'platform/apiserver-client-nodeagent'
      && c.spec.username === `system:bootstrap:${token.split('.')[0]}` && csrNode(c) === node);
  const csrNode = (c: any) => /CN\s*=\s*system:node:(\S+)/.exec(openssl(['req', '-noout', '-subject'], { input: Buffer.from(c.spec.request, 'base64') }))?.[1];

  it('keeps its key and CSR across a SIGKILL while the CSR waits, and finishes once it is approved', { timeout: 120_000 }, async () => {
    // With its health port: closed until the identity is loaded, as the kubelet starts no server before LoadClientCert.
    const { healthzPort: _none, ...withHealth } = CONFIG;
    const dirs = await agentDirs(path.join(root, 'l1'), plat.url, caFile, token, withHealth);
    const health = () => new Promise<string>((resolve) => {
      http.get({ host: '127.0.0.1', port: dirs.healthzPort, path: '/healthz' }, (res) => {
        let body = '';
        res.on('data', (c) => { body += c; });
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      }).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    const tmpKey = path.join(dirs.certDir, 'nodeagent-client.key.tmp');
    const first = start(dirs, 'l1');
    await first.waitFor(/Waiting for client certificate to be issued/);
    assert.equal(statSync(tmpKey).mode & 0o777, 0o600);
    const keyPem = readFileSync(tmpKey, 'utf8');
    assert.match(keyPem, /^-----BEGIN EC PRIVATE KEY-----/);
    const [csr, ...more] = await csrsOf('l1');
    assert.equal(more.length, 0, 'one CSR');
    // P-256: no key encipherment.
    assert.equal(csr.metadata.name, expectedName(keyPem, 'l1', ['digital signature', 'client auth']));
    assert.deepEqual(csr.spec.usages, ['digital signature', 'client auth']);
    assert.equal(existsSync(dirs.kubeconfig), false, 'the kubeconfig is written last');

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const second = start(dirs, 'l1');
    await second.waitFor(/csr for this node already exists, reusing/);
    await second.waitFor(/csr for this node is still valid/);
    await second.waitFor(/Waiting for client certificate to be issued/);
    assert.equal(await health(), 'ECONNREFUSED', 'no health port while the CSR waits');
    assert.equal(readFileSync(tmpKey, 'utf8'), keyPem, 'the same key');
    const after = await csrsOf('l1');
    assert.deepEqual(after.map((c) => [c.metadata.name, c.metadata.uid]), [[csr.metadata.name, csr.metadata.uid]], 'still that one CSR');

    const approve = await plat.admin.patch(`${CSRS}/${csr.metadata.name}/approval`,
      [{ op: 'add', path: '/status', value: { conditions: [{ type: 'Approved', status: 'True', reason: 'Manual' }] } }], 'application/json-patch+json');
    assert.equal(approve.status, 200, approve.text);
    await second.waitFor(new RegExp(`certificate signing request ${csr.metadata.name} is issued`));
    await until(() => existsSync(dirs.kubeconfig), 'kubeconfig');
    assert.equal(await until(async () => { const h = await health(); return h.startsWith('200') && h; }, 'health port'), '200 ok');

    const current = path.join(dirs.certDir, 'nodeagent-client-current.pem');
    assert.ok(lstatSync(current).isSymbolicLink());
    const dated = readlinkSync(current);
    assert.match(path.basename(dated), /^nodeagent-client-\d{4}(-\d{2}){5}\.pem$/);
    assert.equal(statSync(dated).mode & 0o777, 0o600);
    assert.equal(existsSync(tmpKey), false, 'the temporary key is removed');
    const pem = readFileSync(current, 'utf8');
    const storedKey = pem.slice(pem.indexOf('-----BEGIN EC PRIVATE KEY-----'));
    assert.equal(createPublicKey(storedKey).export({ type: 'spki', format: 'der' }).toString('hex'),
      createPublicKey(keyPem).export({ type: 'spki', format: 'der' }).toString('hex'), 'the certificate is for the kept key');
    assert.match(openssl(['x509', '-noout', '-subject', '-in', current]), /O\s*=\s*system:nodes.*CN\s*=\s*system:node:l1/);
    const kc = parseYaml(readFileSync(dirs.kubeconfig, 'utf8'));
    assert.equal(statSync(dirs.kubeconfig).mode & 0o777, 0o600);
    assert.equal(kc.users[0].user['client-certificate'], current);
    assert.equal(kc.users[0].user['client-key'], current);
    assert.equal(kc.clusters[0].cluster.server, plat.url.replace(/\/$/, ''));
    assert.equal((await csrsOf('l1')).length, 1, 'no other CSR');
    assert.equal(await second.stop(), 0, second.output());

    // Started again: the kubeconfig's certificate is valid, nothing to bootstrap.
    const third = start(dirs, 'l1');
    await third.waitFor(/Kubeconfig exists and is valid, skipping bootstrap/);
    assert.equal(await third.stop(), 0, third.output());
    assert.equal(readlinkSync(current), dated, 'the same certificate');
    assert.equal(existsSync(tmpKey), false, 'no new key');
    assert.equal((await csrsOf('l1')).length, 1, 'no new CSR');
  });

  it('names the CSR by upstream\'s digest, with key encipherment last for an RSA key it finds', { timeout: 60_000 }, async () => {
    const dirs = await agentDirs(path.join(root, 'l2'), plat.url, caFile, token, CONFIG);
    mkdirSync(dirs.certDir, { recursive: true, mode: 0o700 });
    const keyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    writeFileSync(path.join(dirs.certDir, 'nodeagent-client.key.tmp'), keyPem, { mode: 0o600 });
    const agent = start(dirs, 'l2');
    await agent.waitFor(/Waiting for client certificate to be issued/);
    const [csr] = await csrsOf('l2');
    const usages = ['digital signature', 'client auth', 'key encipherment'];
    assert.equal(csr?.metadata.name, expectedName(keyPem, 'l2', usages));
    assert.deepEqual(csr.spec.usages, usages);
    assert.equal(await agent.stop(), 0, agent.output());
  });

  const foreign: [string, string, string, RegExp][] = [
    ['another signer', 'platform/apiserver-client', '/O=system:nodes/CN=system:node:l3',
      /retrieved csr is not compatible: csr signerNames differ: new "platform\/apiserver-client", orig: "platform\/apiserver-client-nodeagent"/],
    ['another subject', 'platform/apiserver-client-nodeagent', '/O=system:nodes/CN=system:node:other',
      /retrieved csr is not compatible: csr subjects differ: new: pkix\.Name\{Country:\[\]string\(nil\), Organization:\[\]string\{"system:nodes"\}, .*CommonName:"system:node:other", .*orig: pkix\.Name\{.*CommonName:"system:node:l3"/],
  ];
  for (const [what, signerName, subject, error] of foreign) {
    it(`stops with upstream's error when the CSR of its name has ${what}`, { timeout: 60_000 }, async () => {
      const dirs = await agentDirs(path.join(root, `l3-${what.replace(/ /g, '-')}`), plat.url, caFile, token, CONFIG);
      mkdirSync(dirs.certDir, { recursive: true, mode: 0o700 });
      const keyFile = path.join(dirs.certDir, 'nodeagent-client.key.tmp');
      openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyFile]);
      const keyPem = readFileSync(keyFile, 'utf8');
      const name = expectedName(keyPem, 'l3', ['digital signature', 'client auth']);
      const request = openssl(['req', '-new', '-key', keyFile, '-subj', subject]);
      const created = await plat.admin.post(CSRS, {
        apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
        spec: { request: Buffer.from(request).toString('base64'), signerName, usages: ['digital signature', 'client auth'] },
      });
      assert.equal(created.status, 201, created.text);
      const agent = start(dirs, 'l3');
      const code = await Promise.race([
        new Promise<number | null>((r) => agent.child.once('exit', r)),
        new Promise<string>((r) => setTimeout(() => r('still running after 30s'), 30_000).unref()),
      ]);
      assert.equal(code, 1, agent.output());
      assert.match(agent.output(), /csr for this node already exists, reusing/);
      assert.match(agent.output(), error);
      assert.equal(existsSync(dirs.kubeconfig), false);
      assert.equal(readFileSync(keyFile, 'utf8'), keyPem, 'the key is kept for the next attempt');
    });
  }
});
