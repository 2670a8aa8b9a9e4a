// The `plat` commands with a kubeconfig whose user is an exec credential plugin, a token file or
// basic auth, against `plat all` (static tokens): what kubectl v1.32 does with the same file. The
// plugin's path is relative to the kubeconfig, not to the working directory; its stderr reaches
// the user; its client certificate is presented; its failure is said in client-go's words.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const V1 = 'client.authentication.k8s.io/v1';

describe('plat commands with exec plugins, token files and basic auth', () => {
  let plat: RunningPlat;
  let dir = '';
  before(async () => {
    dir = tempDir('plat-exec-host-');
    writeFileSync(path.join(dir, 'tokens.csv'), 'admintok,admin,1,"system:masters"\n');
    plat = await startInProcess({ args: ['--token-auth-file', path.join(dir, 'tokens.csv')] });
    mkdirSync(path.join(dir, 'conf', 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'conf', 'sub', 'tok'), 'admintok\n');
  });
  after(async () => { await plat?.stop(); });

  const plugin = (name: string, body: string): void => {
    const file = path.join(dir, 'conf', 'sub', name);
    writeFileSync(file, `#!/bin/bash\n${body}\n`);
    chmodSync(file, 0o755);
  };
  /** A kubeconfig in dir/conf with plat's server and CA and this user. */
  const kubeconfig = (name: string, user: string): string => {
    const admin = readFileSync(plat.kubeconfig, 'utf8');
    const ca = /certificate-authority-data: (\S+)/.exec(admin)![1];
    const file = path.join(dir, 'conf', name);
    writeFileSync(file, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${plat.url}", certificate-authority-data: ${ca}}}]
users: [{name: u, user: {${user}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    return file;
  };
  // From another directory: relative paths in the kubeconfig must not start at the working directory.
  const run = (args: string[]) => runPlatAsync(args, { cwd: dir, env: { PLATCONFIG: '', KUBECONFIG: '' } });

  it('plat csr list runs a v1 plugin found relative to the kubeconfig, passing its stderr through', async () => {
    plugin('exec.sh', `echo "plugin on stderr" >&2\necho '{"apiVersion":"${V1}","kind":"ExecCredential","status":{"token":"admintok"}}'`);
    const conf = kubeconfig('exec.conf', `exec: {apiVersion: ${V1}, command: ./sub/exec.sh, interactiveMode: Never}`);
    const r = await run(['csr', 'list', '--kubeconfig', conf]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^plugin on stderr$/m);
  });

  it('plat auth can-i presents a plugin\'s client certificate, and a token file\'s token', async () => {
    const pki = path.join(plat.dataDir, 'pki');
    plugin('cert.sh', `exec "${process.execPath}" -e 'const f = require("fs"); console.log(JSON.stringify({apiVersion: "${V1}", kind: "ExecCredential", status: {clientCertificateData: f.readFileSync("${pki}/admin.crt", "utf8"), clientKeyData: f.readFileSync("${pki}/admin.key", "utf8")}}))'`);
    const users = [`exec: {apiVersion: ${V1}, command: sub/cert.sh, interactiveMode: Never}`, 'tokenFile: sub/tok'];
    // Only an authenticated admin may delete nodes; anonymous is refused.
    const answers = await Promise.all(users.map((user, i) => run(['auth', 'can-i', 'delete', 'nodes', '--kubeconfig', kubeconfig(`can-i-${i}.conf`, user)])));
    answers.forEach((r, i) => assert.deepEqual([r.code, r.stdout], [0, 'yes\n'], `${users[i]}: ${r.stderr}`));
  });

  it('basic auth is sent (plat\'s API server does not take it), as kubectl sends it', async () => {
    const r = await run(['auth', 'can-i', 'get', 'nodes', '--kubeconfig', kubeconfig('basic.conf', 'username: a, password: b')]);
    assert.deepEqual([r.code, r.stderr], [1, 'plat auth can-i: You must be logged in to the server (Unauthorized)\n']);
  });

  it('a plugin that fails: kubectl\'s words', async () => {
    plugin('fail.sh', 'exit 3');
    const conf = kubeconfig('fail.conf', `exec: {apiVersion: ${V1}, command: ./sub/fail.sh, interactiveMode: Never}`);
    const expected = `Unable to connect to the server: getting credentials: exec: executable ${path.join(dir, 'conf', 'sub', 'fail.sh')} failed with exit code 3`;
    const r = await run(['csr', 'list', '--kubeconfig', conf]);
    assert.deepEqual([r.code, r.stderr], [1, `plat csr list: ${expected}\n`]);
    const kubectl = await new Promise<string>((resolve) => execFile('kubectl', ['--kubeconfig', conf, 'get', 'certificatesigningrequests.v1.certificates.platform'], {
      cwd: dir, env: { ...process.env, KUBECACHEDIR: path.join(dir, 'kube-cache') }, timeout: 20_000,
    }, (_err, _out, stderr) => resolve(stderr)));
    // Its last line: a cold discovery cache logs the same error once per discovery request before it.
    assert.equal(kubectl.trimEnd().split('\n').at(-1), expected);
  });
});
