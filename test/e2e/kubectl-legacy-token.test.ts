// The operator's long-lived token for a ServiceAccount, with real kubectl against the real `plat all`
// process (its controller manager runs the tokens controller with --service-account-private-key-file):
// a Secret of type platform/service-account-token naming the account is filled, `kubectl
// --token=<it> auth whoami` is the account, and deleting the Secret revokes the token.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
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
    const key = path.join(dir, 'sa.key');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'sec1', format: 'pem' }));
    plat = await startProcess({ args: ['--service-account-signing-key-file', key, '--service-account-key-file', key, '--service-account-private-key-file', key] });
  });
  after(async () => { await plat?.stop(); });

  it('a filled token Secret is the account for kubectl --token, until it is deleted', async () => {
    const admin = new Kubectl(plat.kubeconfig);
    assert.equal((await admin.run(['create', 'serviceaccount', 'ci'])).code, 0);
    const manifest = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: ci-token\n  annotations:\n    platform/service-account.name: ci\ntype: platform/service-account-token\n';
    const applied = await admin.run(['apply', '-f', '-'], manifest);
    assert.equal(applied.code, 0, applied.stderr);
    const token = await until(async () => {
      const r = await admin.run(['get', 'secret', 'ci-token', '-o', 'jsonpath={.data.token}']);
      return r.code === 0 && r.stdout ? Buffer.from(r.stdout, 'base64').toString('utf8') : undefined;
    }, 'the token filled');
    // No user in this kubeconfig: only --token says who calls.
    const conf = path.join(dir, 'anon.conf');
    writeFileSync(conf, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u}\ncurrent-context: c\n`);
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
