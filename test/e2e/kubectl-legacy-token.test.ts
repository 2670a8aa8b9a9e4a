// The operator's long-lived token for a ServiceAccount, with real kubectl against the real `plat all`
// process, as it is out of the box (its tokens controller signs with the issuer's key and writes its
// CA into ca.crt, as kubeadm sets one up): a Secret of type platform/service-account-token naming
// the account is filled, `kubectl --token=<it> auth whoami` is the account (checking the server
// with the Secret's ca.crt), and deleting the Secret revokes the token.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

describe('kubectl with a legacy service-account token', () => {
  let plat: RunningPlat;
  let dir: string;
  before(async () => {
    dir = tempDir('plat-legacy-');
    plat = await startProcess();
  });
  after(async () => { await plat?.stop(); });

  it('a filled token Secret is the account for kubectl --token, until it is deleted', async () => {
    const admin = new Kubectl(plat.kubeconfig);
    assert.equal((await admin.run(['create', 'serviceaccount', 'ci'])).code, 0);
    const manifest = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: ci-token\n  annotations:\n    platform/service-account.name: ci\ntype: platform/service-account-token\n';
    const applied = await admin.run(['apply', '-f', '-'], manifest);
    assert.equal(applied.code, 0, applied.stderr);
    const filled = await until(async () => {
      const r = await admin.run(['get', 'secret', 'ci-token', '-o', 'json']);
      return r.code === 0 && JSON.parse(r.stdout).data?.token ? JSON.parse(r.stdout).data : undefined;
    }, 'the token filled');
    const token = Buffer.from(filled.token, 'base64').toString('utf8');
    assert.equal(Buffer.from(filled['ca.crt'], 'base64').toString('utf8'), readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), 'utf8'));
    // No user in this kubeconfig: only --token says who calls; the server is trusted by the Secret's ca.crt.
    const caFile = path.join(dir, 'ca.crt');
    writeFileSync(caFile, Buffer.from(filled['ca.crt'], 'base64'));
    const conf = path.join(dir, 'anon.conf');
    writeFileSync(conf, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${caFile}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u}\ncurrent-context: c\n`);
    const robot = new Kubectl(conf);
    const who = await robot.run(['--token', token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(who.code, 0, who.stderr);
    assert.equal(who.stdout, 'system:serviceaccount:default:ci');
    assert.equal((await admin.run(['delete', 'secret', 'ci-token'])).code, 0);
    const after = await robot.run(['--token', token, 'auth', 'whoami']);
    assert.notEqual(after.code, 0);
    assert.match(after.stderr, /Unauthorized/);
  });
});
