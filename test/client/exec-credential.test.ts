// A kubeconfig user's exec credential plugin, token file and basic auth, as plat's clients use them:
// real plugin scripts (bash) run by the REST client and the webhook client against an HTTPS server
// of the test's own on loopback, which records each request's Authorization header and client
// certificate and answers 401 to the token `bad`.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { ExecAuthenticator, type ExecConfig } from '../../core/client/exec-credential.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { TokenFileSource } from '../../core/client/token-file.js';
import { WebhookClient } from '../../core/client/webhook-client.js';
import { makeCa, makeClientCert, makeServingCert } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';

const V1 = 'client.authentication.k8s.io/v1';
const ca = makeCa();
const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
const alice = makeClientCert(ca, 'alice');
const bob = makeClientCert(ca, 'bob');

interface Seen { authorization: string | undefined; cn: string | undefined }

describe('exec credential plugins, token files and basic auth in plat\'s clients', () => {
  const seen: Seen[] = [];
  let server: https.Server;
  let url = '';
  let dir = '';
  before(async () => {
    dir = tempDir('plat-exec-');
    server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem, ca: ca.certificatePem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const authorization = req.headers.authorization;
      seen.push({ authorization, cn: peer && 'subject' in peer ? peer.subject?.CN as string | undefined : undefined });
      const code = authorization === 'Bearer bad' ? 401 : 200;
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(code === 401
        ? JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 })
        : JSON.stringify({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', status: { authenticated: false }, metadata: {}, items: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A bash script in dir; `runs` counts its runs in dir/<name>.runs. */
  const script = (name: string, body: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/bash\necho run >> "${file}.runs"\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const runs = (file: string): number => {
    try { return readFileSync(`${file}.runs`, 'utf8').split('\n').filter(Boolean).length; } catch { return 0; }
  };
  const credential = (status: object, version = V1) => `'${JSON.stringify({ apiVersion: version, kind: 'ExecCredential', status })}'`;
  const kubeconfig = (name: string, user: string, cluster = ''): string => {
    const file = path.join(dir, name);
    writeFileSync(file, `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: ${url}
    certificate-authority-data: ${Buffer.from(ca.certificatePem).toString('base64')}
${cluster}users:
- name: u
  user:
${user}
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    return file;
  };
  const list = (client: RestClient) => client.request('GET', '/apis/certificates.platform/v1/certificatesigningrequests');

  it('runs a v1 plugin (relative to the kubeconfig, args, env, KUBERNETES_EXEC_INFO) and sends its token, once', async () => {
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const plugin = script('sub/v1.sh', `printf '%s\\n' "$KUBERNETES_EXEC_INFO" "$*" "$FOO" > "${dir}/v1.info"\necho ${credential({ token: 'tok-v1' })}`);
    const conf = kubeconfig('v1.conf', '    exec: {apiVersion: client.authentication.k8s.io/v1, command: ./sub/v1.sh, args: [a, b c], env: [{name: FOO, value: bar}], interactiveMode: Never}');
    const client = new RestClient(loadKubeconfig(conf));
    seen.length = 0;
    await list(client);
    await list(client);
    client.close();
    assert.deepEqual(seen.map((s) => s.authorization), ['Bearer tok-v1', 'Bearer tok-v1']);
    assert.equal(runs(plugin), 1, 'a credential without expiry is kept');
    assert.deepEqual(readFileSync(path.join(dir, 'v1.info'), 'utf8').split('\n'), [
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}', 'a b c', 'bar', '']);
  });

  it('tells a v1beta1 plugin (interactive if available) the cluster when provideClusterInfo', async () => {
    script('beta.sh', `printf '%s' "$KUBERNETES_EXEC_INFO" > "${dir}/beta.info"\necho ${credential({ token: 'tok-beta' }, 'client.authentication.k8s.io/v1beta1')}`);
    const conf = kubeconfig('beta.conf', '    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ./beta.sh, provideClusterInfo: true}',
      '    tls-server-name: localhost\n    extensions: [{name: client.authentication.k8s.io/exec, extension: {audience: plat, count: 1}}, {name: other, extension: {}}]\n');
    const client = new RestClient(loadKubeconfig(conf));
    seen.length = 0;
    await list(client);
    client.close();
    assert.equal(seen[0]?.authorization, 'Bearer tok-beta');
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'beta.info'), 'utf8')), {
      kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1beta1',
      spec: {
        cluster: { server: url, 'tls-server-name': 'localhost', 'certificate-authority-data': Buffer.from(ca.certificatePem).toString('base64'), config: { audience: 'plat', count: 1 } },
        interactive: false,
      },
    });
  });

  it('runs the plugin again after a 401, and only once for the credential that got it', async () => {
    // First run: a token the server refuses; then a good one.
    const plugin = script('rotate.sh', `if [ "$(wc -l < "$0.runs")" -le 1 ]; then echo ${credential({ token: 'bad' })}; else echo ${credential({ token: 'good' })}; fi`);
    const client = new RestClient(loadKubeconfig(kubeconfig('rotate.conf', `    exec: {apiVersion: ${V1}, command: ${plugin}, interactiveMode: Never}`)));
    seen.length = 0;
    await assert.rejects(list(client), { code: 401 });
    assert.equal(runs(plugin), 2, 'the 401 ran the plugin again');
    await list(client);
    client.close();
    assert.deepEqual(seen.map((s) => s.authorization), ['Bearer bad', 'Bearer good']);
    assert.equal(runs(plugin), 2);
  });

  it('keeps a credential until its expirationTimestamp, then runs the plugin again; a new client certificate is presented on new connections', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const pem = (c: typeof alice) => ({ clientCertificateData: c.certificatePem, clientKeyData: c.privateKeyPem });
    const plugin = script('cert.sh', `if [ "$(wc -l < "$0.runs")" -le 1 ]; then echo ${credential({ ...pem(alice), expirationTimestamp: '2030-01-01T00:10:00Z' })}; else echo ${credential({ ...pem(bob), token: 'also' })}; fi`);
    const config: ExecConfig = { command: plugin, args: [], env: [], apiVersion: V1, installHint: '', interactiveMode: 'Never' };
    const exec = new ExecAuthenticator(config, { now: () => now, stdinIsTerminal: () => false, environ: () => process.env });
    const client = new RestClient({ server: new URL(url), ca: ca.certificatePem, credentials: exec });
    seen.length = 0;
    await list(client);
    now += 10 * 60_000; // at the expiry: not after it
    await list(client);
    assert.equal(runs(plugin), 1);
    now += 1;
    await list(client);
    client.close();
    assert.equal(runs(plugin), 2);
    assert.deepEqual(seen, [
      { authorization: undefined, cn: 'alice' }, { authorization: undefined, cn: 'alice' }, { authorization: 'Bearer also', cn: 'bob' }]);
  });

  it('says what client-go says of a plugin that cannot be run or prints something else', async () => {
    const echo = script('echo.sh', 'printf "%s" "$1"');
    const failing = script('fail.sh', 'exit 3');
    const cases: { name: string; config?: Partial<ExecConfig>; out?: string; error: string }[] = [
      { name: 'not on PATH', config: { command: 'plat-no-such-plugin', installHint: 'Install it with: apt-get install plat-plugin' },
        error: 'getting credentials: exec: executable plat-no-such-plugin not found\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n\nTo learn more about this feature, consult the documentation available at:\n      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins\n\nInstall it with: apt-get install plat-plugin' },
      { name: 'missing path', config: { command: path.join(dir, 'nope.sh') }, error: `getting credentials: exec: fork/exec ${path.join(dir, 'nope.sh')}: no such file or directory` },
      { name: 'exit status', config: { command: failing }, error: `getting credentials: exec: executable ${failing} failed with exit code 3` },
      { name: 'always interactive', config: { command: echo, interactiveMode: 'Always' }, error: 'getting credentials: exec plugin cannot support interactive mode: standard input is not a terminal' },
      { name: 'no output', out: '', error: `getting credentials: exec plugin is configured to use API version ${V1}, plugin returned version client.authentication.k8s.io/__internal` },
      { name: 'not JSON', out: 'hello', error: 'getting credentials: decoding stdout: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }' },
      { name: 'cut JSON', out: '{', error: 'getting credentials: decoding stdout: couldn\'t get version/kind; json parse error: unexpected end of JSON input' },
      { name: 'other version', out: JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status: { token: 't' } }), error: `getting credentials: exec plugin is configured to use API version ${V1}, plugin returned version client.authentication.k8s.io/v1beta1` },
      { name: 'other kind', out: JSON.stringify({ apiVersion: V1, kind: 'Pod' }), error: 'getting credentials: decoding stdout: no kind "Pod" is registered for version "client.authentication.k8s.io/v1" in scheme "pkg/client/auth/exec/exec.go:62"' },
      { name: 'no status', out: JSON.stringify({ apiVersion: V1, kind: 'ExecCredential' }), error: 'getting credentials: exec plugin didn\'t return a status field' },
      { name: 'empty status', out: JSON.stringify({ apiVersion: V1, kind: 'ExecCredential', status: {} }), error: 'getting credentials: exec plugin didn\'t return a token or cert/key pair' },
      { name: 'certificate alone', out: JSON.stringify({ apiVersion: V1, status: { clientCertificateData: 'x' } }), error: 'getting credentials: exec plugin returned only certificate or key, not both' },
      { name: 'no PEM', out: JSON.stringify({ apiVersion: V1, status: { clientCertificateData: 'x', clientKeyData: 'y' } }), error: 'getting credentials: failed parsing client key/certificate: tls: failed to find any PEM data in certificate input' },
      { name: 'token of another type', out: JSON.stringify({ apiVersion: V1, status: { token: 5 } }), error: 'getting credentials: decoding stdout: json: cannot unmarshal number into Go struct field ExecCredentialStatus.status.token of type string' },
      { name: 'bad expiry', out: JSON.stringify({ apiVersion: V1, status: { token: 't', expirationTimestamp: 'soon' } }), error: 'getting credentials: decoding stdout: parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"' },
    ];
    for (const c of cases) {
      const config: ExecConfig = { command: echo, args: [c.out ?? ''], env: [], apiVersion: V1, installHint: '', interactiveMode: 'Never', ...c.config };
      await assert.rejects(new ExecAuthenticator(config).get(), (e: Error) => { assert.equal(e.message, c.error, c.name); return true; });
    }
    // The webhook client fails its call with the same words, as Go's url.Error.
    const webhook = new WebhookClient({ connection: loadKubeconfig(kubeconfig('fail.conf', `    exec: {apiVersion: ${V1}, command: ${failing}, interactiveMode: Never}`)) });
    await assert.rejects(webhook.post('{}'), { message: `Post "${url}/?timeout=30s": getting credentials: exec: executable ${failing} failed with exit code 3` });
    webhook.close();
  });

  it('sends basic auth and token-file tokens from the REST client and the webhook client', async () => {
    writeFileSync(path.join(dir, 'tok'), 'from-file\n');
    const basic = loadKubeconfig(kubeconfig('basic.conf', '    username: ada\n    password: "p:w"'));
    const file = loadKubeconfig(kubeconfig('file.conf', '    tokenFile: tok\n    token: fallback'));
    const execWebhook = loadKubeconfig(kubeconfig('hook.conf', `    exec: {apiVersion: ${V1}, command: ${script('hook.sh', `echo ${credential({ token: 'hook' })}`)}, interactiveMode: Never}`));
    seen.length = 0;
    for (const conn of [basic, file, execWebhook]) {
      const client = new RestClient(conn);
      await list(client);
      client.close();
      const webhook = new WebhookClient({ connection: conn });
      await webhook.post('{}');
      webhook.close();
    }
    const b = `Basic ${Buffer.from('ada:p:w').toString('base64')}`;
    assert.deepEqual(seen.map((s) => s.authorization), [b, b, 'Bearer from-file', 'Bearer from-file', 'Bearer hook', 'Bearer hook']);
  });

  it('reads a token file again once its reading is 50 s old, keeping the last token while it cannot', async () => {
    const file = path.join(dir, 'rotating');
    writeFileSync(file, ' one \n');
    let now = 0;
    const source = new TokenFileSource(file, '', () => now);
    const token = async () => (await source.get()).authorization;
    assert.equal(await token(), 'Bearer one');
    writeFileSync(file, 'two');
    now = 49_999;
    assert.equal(await token(), 'Bearer one');
    now = 50_001;
    assert.equal(await token(), 'Bearer two');
    rmSync(file);
    now = 200_000;
    assert.equal(await token(), 'Bearer two');
  });
});
