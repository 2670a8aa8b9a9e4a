// kubectl (the machine's v1.32 dispatcher), driven against the real `plat all` process with the
// admin kubeconfig it writes: the command sequence of issue 2's "Done when".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl, eventually } from '../helpers/kubectl.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const RES = 'certificatesigningrequests.v1.certificates.platform';

describe('kubectl against plat all', () => {
  let plat: RunningPlat & { output: () => string };
  let k: Kubectl;
  let work: string;
  before(async () => {
    plat = await startProcess();
    k = new Kubectl(plat.kubeconfig);
    work = tempDir('plat-kubectl-');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(work, 'key.pem'), '-subj', '/CN=alice/O=dev', '-out', path.join(work, 'csr.pem')], { stdio: 'ignore' });
    const request = Buffer.from(readFileSync(path.join(work, 'csr.pem'))).toString('base64');
    writeFileSync(path.join(work, 'csr.yaml'), [
      'apiVersion: certificates.platform/v1',
      'kind: CertificateSigningRequest',
      'metadata:',
      '  name: alice',
      '  labels: {team: a}',
      'spec:',
      `  request: ${request}`,
      '  signerName: example.com/client',
      '  expirationSeconds: 86400',
      '  usages: [digital signature, client auth]',
      '',
    ].join('\n'));
  });
  after(async () => { await plat?.stop(); });

  it('api-resources lists certificatesigningrequests in certificates.platform', async () => {
    const r = await k.run(['api-resources']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /certificatesigningrequests\s+csr\s+certificates\.platform\/v1\s+false\s+CertificateSigningRequest/);
  });

  it('create -f works with default (strict) validation', async () => {
    const r = await k.run(['create', '-f', path.join(work, 'csr.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /certificatesigningrequest\.certificates\.platform\/alice created/);
  });

  it('create with an unknown field fails under strict validation', async () => {
    const bad = readFileSync(path.join(work, 'csr.yaml'), 'utf8').replace('name: alice', 'name: alice-bad').replace('  signerName:', '  bogusField: x\n  signerName:');
    writeFileSync(path.join(work, 'bad.yaml'), bad);
    const r = await k.run(['create', '-f', path.join(work, 'bad.yaml')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /^Error from server \(BadRequest\): error when creating ".*bad\.yaml": CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: strict decoding error: unknown field "spec\.bogusField"$/m);
  });

  it('get shows the CSR columns, get -o yaml shows the caller in spec.username', async () => {
    const r = await k.run(['get', RES]);
    assert.equal(r.code, 0, r.stderr);
    const [header, row] = r.stdout.trim().split('\n');
    assert.deepEqual(header!.trim().split(/\s+/), ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    assert.match(row!, /^alice\s+\S+\s+example\.com\/client\s+plat-admin\s+24h\s+Pending$/);
    const y = await k.run(['get', RES, 'alice', '-o', 'yaml']);
    assert.equal(y.code, 0, y.stderr);
    assert.match(y.stdout, /username: plat-admin/);
    assert.match(y.stdout, /- system:masters/);
  });

  it('approves, issues, refuses removal of the condition, and get -w sees it all', async () => {
    const watch = k.start(['get', RES, '-w']);
    await eventually(() => /alice .*Pending/.test(watch.output()), 'the watch to list alice');

    const approve = await k.run(['patch', RES, 'alice', '--subresource=approval', '--type=json', '-p',
      JSON.stringify([{ op: 'add', path: '/status', value: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }] } }])]);
    assert.equal(approve.code, 0, approve.stderr);
    assert.match(approve.stdout, /certificatesigningrequest\.certificates\.platform\/alice patched/);
    await eventually(() => /alice .*Approved\s*$/m.test(watch.output()), 'the watch to show Approved');

    const pki = path.join(plat.dataDir, 'pki');
    const cert = execFileSync('openssl', ['x509', '-req', '-in', path.join(work, 'csr.pem'), '-CA', path.join(pki, 'ca.crt'),
      '-CAkey', path.join(pki, 'ca.key'), '-days', '1', '-set_serial', '7'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const issue = await k.run(['patch', RES, 'alice', '--subresource=status', '--type=merge', '-p',
      JSON.stringify({ status: { certificate: cert.toString('base64') } })]);
    assert.equal(issue.code, 0, issue.stderr);
    await eventually(() => /alice .*Approved,Issued/.test(watch.output()), 'the watch to show Approved,Issued');

    const remove = await k.run(['patch', RES, 'alice', '--subresource=approval', '--type=merge', '-p', JSON.stringify({ status: { conditions: [] } })]);
    assert.notEqual(remove.code, 0);
    assert.match(remove.stderr, /status\.conditions: Forbidden: updates may not remove a condition of type "Approved"/);

    const got = await k.run(['get', RES, 'alice', '-o', 'jsonpath={.status.certificate}']);
    assert.equal(Buffer.from(got.stdout, 'base64').toString(), cert.toString());
    await watch.stop();
  });

  it('delete removes it (and waits for the deletion)', async () => {
    const r = await k.run(['delete', RES, 'alice']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /certificatesigningrequest\.certificates\.platform "alice" deleted/);
    const g = await k.run(['get', RES, 'alice']);
    assert.notEqual(g.code, 0);
    assert.match(g.stderr, /NotFound.*"alice" not found/);
  });
});
