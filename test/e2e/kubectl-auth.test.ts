// kubectl authenticating to plat with a bearer token (static token file) and with a client
// certificate made by openssl: both create and get CSRs, and the CSRs carry the caller.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const RES = 'certificatesigningrequests.v1.certificates.platform';

function kubeconfig(file: string, server: string, caFile: string, user: Record<string, string>): string {
  const userLines = Object.entries(user).map(([k, v]) => `    ${k}: ${v}`).join('\n');
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${server}\n    certificate-authority: ${caFile}\nusers:\n- name: u\n  user:\n${userLines}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u}\ncurrent-context: c\n`);
  return file;
}

function csrYaml(dir: string, name: string): string {
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', path.join(dir, `${name}.key`), '-subj', `/CN=${name}`, '-out', path.join(dir, `${name}.csr`)], { stdio: 'ignore' });
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, `apiVersion: certificates.platform/v1\nkind: CertificateSigningRequest\nmetadata: {name: ${name}}\nspec:\n  request: ${readFileSync(path.join(dir, `${name}.csr`)).toString('base64')}\n  signerName: example.com/client\n  usages: [digital signature, client auth]\n`);
  return file;
}

describe('kubectl authentication', () => {
  let plat: RunningPlat;
  let dir: string;
  before(async () => {
    dir = tempDir('plat-kauth-');
    writeFileSync(path.join(dir, 'tokens.csv'), 'k8s-token-for-carol,carol,carol-uid,"devs,ops"\n');
    plat = await startProcess({ args: ['--token-auth-file', path.join(dir, 'tokens.csv')] });
  });
  after(async () => { await plat?.stop(); });

  it('with a bearer token in the kubeconfig', async () => {
    const k = new Kubectl(kubeconfig(path.join(dir, 'token.conf'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), { token: 'k8s-token-for-carol' }));
    const created = await k.run(['create', '-f', csrYaml(dir, 'by-carol')]);
    assert.equal(created.code, 0, created.stderr);
    const got = await k.run(['get', RES, 'by-carol', '-o', 'jsonpath={.spec.username} {.spec.uid} {.spec.groups}']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, 'carol carol-uid ["devs","ops","system:authenticated"]');
    const wrong = new Kubectl(kubeconfig(path.join(dir, 'wrong.conf'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), { token: 'not-a-token' }));
    const refused = await wrong.run(['get', RES]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /You must be logged in to the server/);
  });

  it('with an openssl-made client certificate from the client CA', async () => {
    const pki = path.join(plat.dataDir, 'pki');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(dir, 'dave.key'), '-subj', '/CN=dave/O=devs/O=qa', '-out', path.join(dir, 'dave.csr')], { stdio: 'ignore' });
    writeFileSync(path.join(dir, 'ext.cnf'), 'extendedKeyUsage=clientAuth\n');
    execFileSync('openssl', ['x509', '-req', '-in', path.join(dir, 'dave.csr'), '-CA', path.join(pki, 'ca.crt'), '-CAkey', path.join(pki, 'ca.key'),
      '-days', '1', '-set_serial', '99', '-extfile', path.join(dir, 'ext.cnf'), '-out', path.join(dir, 'dave.crt')], { stdio: 'ignore' });
    const k = new Kubectl(kubeconfig(path.join(dir, 'cert.conf'), plat.url, path.join(pki, 'ca.crt'),
      { 'client-certificate': path.join(dir, 'dave.crt'), 'client-key': path.join(dir, 'dave.key') }));
    const created = await k.run(['create', '-f', csrYaml(dir, 'by-dave')]);
    assert.equal(created.code, 0, created.stderr);
    const got = await k.run(['get', RES, 'by-dave', '-o', 'json']);
    assert.equal(got.code, 0, got.stderr);
    const spec = JSON.parse(got.stdout).spec;
    assert.equal(spec.username, 'dave');
    assert.deepEqual(spec.groups, ['devs', 'qa', 'system:authenticated']);
    const der = Buffer.from(readFileSync(path.join(dir, 'dave.crt'), 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64');
    assert.deepEqual(spec.extra, { 'authentication.platform/credential-id': [`X509SHA256=${createHash('sha256').update(der).digest('hex')}`] });
  });
});
