// `plat csr approve|deny` semantics (kubectl certificate approve/deny, k8s-behaviour §7), as a
// table over the starting state, run with the real `plat` process against an in-process server.
// A viewer who may read but not approve tells "skipped" from "written": skipping succeeds for it,
// writing is refused.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const VIEWER_TOKEN = 'viewer-token-0123456789';
const rules = tableAuthorizer([
  { group: 'system:masters', decision: 'allow' },
  { user: 'viewer', verb: 'get', resource: 'certificatesigningrequests', subresource: '', decision: 'allow' },
]);

type State = 'pending' | 'approved' | 'denied';
interface Row {
  state: State; command: 'approve' | 'deny'; flags?: string[]; as?: 'viewer';
  code: number; stderr?: string;
  /** The conditions afterwards, as [type, reason, message]. */
  after: [string, string, string][];
}

const APPROVED: [string, string, string] = ['Approved', 'Setup', 'set up by the test'];
const DENIED: [string, string, string] = ['Denied', 'Setup', 'set up by the test'];
const KUBECTL_APPROVED: [string, string, string] = ['Approved', 'KubectlApprove', 'This CSR was approved by kubectl certificate approve.'];
const KUBECTL_DENIED: [string, string, string] = ['Denied', 'KubectlDeny', 'This CSR was denied by kubectl certificate deny.'];
const FORBIDDEN = (name: string) => `plat csr approve: Error from server (Forbidden): certificatesigningrequests.certificates.platform "${name}" is forbidden: User "viewer" cannot update resource "certificatesigningrequests/approval" in API group "certificates.platform" at the cluster scope: Everything is forbidden.`;

const rows: Row[] = [
  { state: 'pending', command: 'approve', code: 0, after: [KUBECTL_APPROVED] },
  { state: 'pending', command: 'deny', code: 0, after: [KUBECTL_DENIED] },
  { state: 'pending', command: 'approve', flags: ['--reason', 'Reviewed', '--message', 'looks right'], code: 0, after: [['Approved', 'Reviewed', 'looks right']] },
  { state: 'approved', command: 'approve', code: 0, after: [APPROVED] },
  { state: 'approved', command: 'approve', as: 'viewer', code: 0, after: [APPROVED] },
  { state: 'approved', command: 'approve', flags: ['--force'], as: 'viewer', code: 1, stderr: 'FORBIDDEN', after: [APPROVED] },
  { state: 'approved', command: 'approve', flags: ['--force'], code: 0, after: [APPROVED] },
  { state: 'approved', command: 'deny', code: 1, stderr: 'certificate signing request "NAME" is already Approved', after: [APPROVED] },
  { state: 'approved', command: 'deny', flags: ['--force'], code: 1, stderr: 'certificate signing request "NAME" is already Approved', after: [APPROVED] },
  { state: 'denied', command: 'approve', code: 1, stderr: 'certificate signing request "NAME" is already Denied', after: [DENIED] },
  { state: 'denied', command: 'deny', code: 0, after: [DENIED] },
  { state: 'pending', command: 'approve', as: 'viewer', code: 1, stderr: 'FORBIDDEN', after: [] },
];

describe('plat csr approve and deny', () => {
  let plat: RunningPlat;
  let viewerConfig: string;
  const fx = fixtures();
  const run = (args: string[], config: string) => runPlatAsync(['csr', ...args, '--kubeconfig', config], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  before(async () => {
    const dir = tempDir('plat-csr-decide-');
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, `${VIEWER_TOKEN},viewer,uid-viewer\n`);
    plat = await startInProcess({ args: ['--authorization-mode=AlwaysDeny', `--token-auth-file=${tokens}`], plugins: [rules] });
    const ca = Buffer.from(readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'))).toString('base64');
    viewerConfig = path.join(dir, 'viewer.conf');
    writeFileSync(viewerConfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: viewer',
      'clusters:', '- name: plat', '  cluster:', `    server: ${plat.url}`, `    certificate-authority-data: ${ca}`,
      'users:', '- name: viewer', '  user:', `    token: ${VIEWER_TOKEN}`,
      'contexts:', '- name: viewer', '  context: {cluster: plat, user: viewer}', '',
    ].join('\n'));
  });
  after(async () => { await plat?.stop(); });

  async function prepare(name: string, state: State): Promise<string> {
    const created = await plat.admin.post(CSRS, baseCsr(fx, name));
    assert.equal(created.status, 201, created.text);
    if (state === 'pending') return created.json.metadata.resourceVersion;
    const obj = created.json;
    obj.status = { conditions: [{ type: state === 'approved' ? 'Approved' : 'Denied', status: 'True', reason: 'Setup', message: 'set up by the test' }] };
    const put = await plat.admin.put(`${CSRS}/${name}/approval`, obj);
    assert.equal(put.status, 200, put.text);
    return put.json.metadata.resourceVersion;
  }

  for (const [i, row] of rows.entries()) {
    const title = `${row.state} + ${row.command}${row.flags ? ` ${row.flags.join(' ')}` : ''}${row.as ? ` as ${row.as}` : ''} -> exit ${row.code}`;
    it(title, async () => {
      const name = `decide-${i}`;
      await prepare(name, row.state);
      const started = Date.now();
      const r = await run([row.command, name, ...(row.flags ?? [])], row.as ? viewerConfig : plat.kubeconfig);
      assert.equal(r.code, row.code, r.stderr);
      if (row.code === 0) assert.equal(r.stdout, `certificatesigningrequest.certificates.platform/${name} ${row.command === 'approve' ? 'approved' : 'denied'}\n`);
      if (row.stderr) {
        const text = row.stderr === 'FORBIDDEN' ? FORBIDDEN(name) : `plat csr ${row.command}: ${row.stderr.replace('NAME', name)}`;
        assert.equal(r.stderr, `${text}\n`);
      }
      const conditions = (await plat.admin.get(`${CSRS}/${name}`)).json.status?.conditions ?? [];
      assert.deepEqual(conditions.map((c: { type: string; reason: string; message: string }) => [c.type, c.reason, c.message]), row.after);
      const added = conditions.find((c: { reason: string }) => c.reason !== 'Setup');
      if (added) {
        assert.equal(added.status, 'True');
        // The client stamps lastUpdateTime (second precision) between start and now.
        const t = Date.parse(added.lastUpdateTime);
        assert.ok(t >= Math.floor(started / 1000) * 1000 && t <= Date.now(), added.lastUpdateTime);
      }
    });
  }

  it('handles several names one by one and fails if any fails', async () => {
    await prepare('many-a', 'pending');
    await prepare('many-b', 'denied');
    await prepare('many-c', 'pending');
    const r = await run(['approve', 'many-a', 'many-b', 'many-missing', 'many-c'], plat.kubeconfig);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'certificatesigningrequest.certificates.platform/many-a approved\ncertificatesigningrequest.certificates.platform/many-c approved\n');
    assert.equal(r.stderr, 'plat csr approve: certificate signing request "many-b" is already Denied\n'
      + 'plat csr approve: Error from server (NotFound): certificatesigningrequests.certificates.platform "many-missing" not found\n');
  });

  it('prints with -o as kubectl certificate approve -o: the CSR as read before the change, or its name', async () => {
    const rv = await prepare('out-a', 'pending');
    await prepare('out-b', 'approved');
    const yaml = await run(['approve', 'out-a', 'out-b', '-o', 'yaml'], plat.kubeconfig);
    assert.equal(yaml.code, 0, yaml.stderr);
    const docs = yaml.stdout.split(/^---\n/m);
    assert.equal(docs.length, 2, yaml.stdout);
    assert.match(docs[0]!, /^apiVersion: certificates\.platform\/v1\nkind: CertificateSigningRequest\n/);
    assert.match(docs[0]!, /\n  name: out-a\n/);
    // kubectl prints the builder's copy, read before the write; the condition went onto another copy.
    assert.match(docs[0]!, new RegExp(`\\n  resourceVersion: "${rv}"\\n`));
    assert.doesNotMatch(docs[0]!, /KubectlApprove|conditions:/);
    assert.match(docs[1]!, /\n  name: out-b\n[^]*reason: Setup\n/);
    assert.doesNotMatch(docs[1]!, /KubectlApprove/, 'already approved: printed as it is');

    await prepare('out-c', 'pending');
    const json = await run(['deny', 'out-c', '-o', 'json'], plat.kubeconfig);
    assert.equal(json.code, 0, json.stderr);
    const obj = JSON.parse(json.stdout);
    assert.deepEqual([obj.kind, obj.metadata.name, obj.status?.conditions], ['CertificateSigningRequest', 'out-c', undefined]);
    const stored = await plat.admin.get(`${CSRS}/out-c`);
    assert.deepEqual(stored.json.status.conditions.map((c: { type: string }) => c.type), ['Denied'], 'written all the same');
    assert.ok(json.stdout.startsWith('{\n    "apiVersion"'), 'kubectl\'s indented JSON');

    await prepare('out-d', 'pending');
    const name = await run(['approve', 'out-d', '-o', 'name'], plat.kubeconfig);
    assert.equal(name.stdout, 'certificatesigningrequest.certificates.platform/out-d\n');
    const bad = await run(['approve', 'out-d', '-o', 'wide'], plat.kubeconfig);
    assert.equal(bad.code, 2);
  });
});
