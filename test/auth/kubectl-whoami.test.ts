// The machine's kubectl `auth whoami` against plat: its typed client posts a SelfSubjectReview in
// protobuf to authentication.k8s.io/v1, and prints the user plat took the credential for, as a
// table or as the object (-o json / -o yaml), for a client-certificate user and a token user.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

function kubeconfig(file: string, plat: RunningPlat, user: Record<string, string>): string {
  const userLines = Object.entries(user).map(([k, v]) => `    ${k}: ${v}`).join('\n');
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}\nusers:\n- name: u\n  user:\n${userLines}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u}\ncurrent-context: c\n`);
  return file;
}

describe('kubectl auth whoami', () => {
  let plat: RunningPlat;
  let dir: string;
  let carol: Kubectl;
  let dave: Kubectl;
  let daveCredentialId: string;
  before(async () => {
    dir = tempDir('plat-whoami-');
    writeFileSync(path.join(dir, 'tokens.csv'), 'token-for-carol,carol,carol-uid,"devs,ops"\n');
    plat = await startInProcess({ args: ['--token-auth-file', path.join(dir, 'tokens.csv')] });
    carol = new Kubectl(kubeconfig(path.join(dir, 'token.conf'), plat, { token: 'token-for-carol' }));
    const pki = path.join(plat.dataDir, 'pki');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(dir, 'dave.key'), '-subj', '/CN=dave/O=qa', '-out', path.join(dir, 'dave.csr')], { stdio: 'ignore' });
    writeFileSync(path.join(dir, 'ext.cnf'), 'extendedKeyUsage=clientAuth\n');
    execFileSync('openssl', ['x509', '-req', '-in', path.join(dir, 'dave.csr'), '-CA', path.join(pki, 'ca.crt'), '-CAkey', path.join(pki, 'ca.key'),
      '-days', '1', '-set_serial', '7', '-extfile', path.join(dir, 'ext.cnf'), '-out', path.join(dir, 'dave.crt')], { stdio: 'ignore' });
    const der = Buffer.from(readFileSync(path.join(dir, 'dave.crt'), 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64');
    daveCredentialId = `X509SHA256=${createHash('sha256').update(der).digest('hex')}`;
    dave = new Kubectl(kubeconfig(path.join(dir, 'cert.conf'), plat, { 'client-certificate': path.join(dir, 'dave.crt'), 'client-key': path.join(dir, 'dave.key') }));
  });
  after(async () => { await plat?.stop(); });

  it('a token user: the table (username, uid, groups)', async () => {
    const r = await carol.run(['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, [
      'ATTRIBUTE   VALUE',
      'Username    carol',
      'UID         carol-uid',
      'Groups      [devs ops system:authenticated]',
      '',
    ].join('\n'));
  });

  it('a token user, -o json: the SelfSubjectReview in authentication.k8s.io/v1', async () => {
    const r = await carol.run(['auth', 'whoami', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null },
      status: { userInfo: { username: 'carol', uid: 'carol-uid', groups: ['devs', 'ops', 'system:authenticated'] } },
    });
  });

  it('a client-certificate user: the table with the credential id as Extra', async () => {
    const r = await dave.run(['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, [
      'ATTRIBUTE                                      VALUE',
      'Username                                       dave',
      'Groups                                         [qa system:authenticated]',
      `Extra: authentication.platform/credential-id   [${daveCredentialId}]`,
      '',
    ].join('\n'));
  });

  it('a client-certificate user, -o yaml', async () => {
    const r = await dave.run(['auth', 'whoami', '-o', 'yaml']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, [
      'apiVersion: authentication.k8s.io/v1',
      'kind: SelfSubjectReview',
      'metadata:',
      '  creationTimestamp: null',
      'status:',
      '  userInfo:',
      '    extra:',
      '      authentication.platform/credential-id:',
      `      - ${daveCredentialId}`,
      '    groups:',
      '    - qa',
      '    - system:authenticated',
      '    username: dave',
      '',
    ].join('\n'));
  });

  it('posts protobuf to authentication.k8s.io/v1 and is answered there', async () => {
    const r = await carol.run(['auth', 'whoami', '-v=8']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\] POST https:\/\/[^ ]+\/apis\/authentication\.k8s\.io\/v1\/selfsubjectreviews\n/);
    assert.match(r.stderr, /\] {5}Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    assert.match(r.stderr, /Response Status: 201 Created/);
    // The answer is JSON, which the typed client also accepts (its Accept lists it).
    assert.match(r.stderr, /"Response Body" body=<\n\t\{"kind":"SelfSubjectReview","apiVersion":"authentication\.k8s\.io\/v1"/);
  });
});
