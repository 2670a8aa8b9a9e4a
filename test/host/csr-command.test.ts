// `plat csr` (the real process) against an in-process `plat all` over HTTPS. The test plays the
// approver and the signer itself (csrsigning is not part of this branch): it approves through
// /approval and issues from the all-in-one CA into /status while `create --wait` is waiting.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { issueCertificate, parseCertificate, parseCsr, samePublicKey } from '../../core/crypto/index.js';
import { makeCa } from '../helpers/certs.js';
import { platBin, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import type { Plugin } from '../../core/plugin.js';
import { cliCollectionGets } from './cli-requests.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('plat csr', () => {
  let plat: RunningPlat;
  let out: string;
  const csr = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
    runPlatAsync(['csr', ...args], { env: { PLATCONFIG: '', KUBECONFIG: '', ...env }, ...(cwd ? { cwd } : {}) });
  const kc = () => ['--kubeconfig', plat.kubeconfig];
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 150; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  };
  const exists = async (name: string) => (await plat.admin.get(`${CSRS}/${name}`)).status === 200;
  const cliGets = cliCollectionGets();

  /** Approve and issue from the all-in-one CA, as the approver and signer would. */
  async function approveAndIssue(name: string): Promise<string> {
    const obj = (await plat.admin.get(`${CSRS}/${name}`)).json;
    obj.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'TestApprove', message: 'approved by the test' }] };
    const approved = await plat.admin.put(`${CSRS}/${name}/approval`, obj);
    assert.equal(approved.status, 200, approved.text);
    const pki = path.join(plat.dataDir, 'pki');
    const now = Date.now();
    const { certificatePem } = issueCertificate(Buffer.from(obj.spec.request, 'base64').toString(), {
      certificatePem: readFileSync(path.join(pki, 'ca.crt'), 'utf8'), privateKey: readFileSync(path.join(pki, 'ca.key'), 'utf8'),
    }, { usages: obj.spec.usages, notBefore: new Date(now - 300_000), notAfter: new Date(now + 3600_000) });
    const issued = approved.json;
    issued.status.certificate = Buffer.from(certificatePem).toString('base64');
    const put = await plat.admin.put(`${CSRS}/${name}/status`, issued);
    assert.equal(put.status, 200, put.text);
    return certificatePem;
  }

  before(async () => { plat = await startInProcess({ plugins: [cliGets.plugin] }); out = tempDir('plat-csr-out-'); });
  after(async () => { await plat?.stop(); });

  it('list with no CSRs says so; list -w then prints the header with the first row, aligned to it', async () => {
    const empty = await csr(['list', ...kc()]);
    assert.deepEqual([empty.code, empty.stdout, empty.stderr], [0, '', 'No resources found\n']);
    const listed = cliGets.count();
    const child = spawn(process.execPath, [platBin, 'csr', 'list', '-w', ...kc()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await until(async () => cliGets.count() === listed + 2, 'the list and its watch');
      assert.equal((await plat.admin.post(CSRS, baseCsr(fixtures(), 'a-rather-long-first-name'))).status, 201);
      await until(async () => stdout.includes('a-rather-long-first-name'), 'the first row');
    } finally {
      child.kill('SIGINT');
    }
    // Interrupted, as kubectl get -w: exit 1.
    assert.equal(await exited, 1);
    // As kubectl get -w: nothing (no "No resources found") until the first row, the header then in its widths.
    assert.match(stdout, /^NAME {23}AGE +SIGNERNAME +REQUESTOR +REQUESTEDDURATION +CONDITION\na-rather-long-first-name {3}\S+ +/);
  });

  /**
   * Starts `plat csr ARGS --timeout 1000h`, more than a Node timer holds (about 24.8 days), and
   * checks it is still running 300 ms after its list and watch: a plain setTimeout would have
   * ended it after 1 ms, with a TimeoutOverflowWarning.
   */
  async function startLongTimeout(args: string[]) {
    const listed = cliGets.count();
    const child = spawn(process.execPath, [platBin, 'csr', ...args, '--timeout', '1000h', ...kc()], { stdio: ['ignore', 'pipe', 'pipe'] });
    const w = { child, stdout: '', stderr: '', code: undefined as number | null | undefined, exited: new Promise<number | null>((r) => child.once('exit', (c) => { w.code = c; r(c); })) };
    child.stdout.on('data', (d: Buffer) => { w.stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { w.stderr += d.toString(); });
    try {
      await until(async () => cliGets.count() === listed + 2 || w.code !== undefined, 'the list and its watch');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(w.code, undefined, `it ended early: ${w.stderr}`);
      assert.doesNotMatch(w.stderr, /TimeoutOverflowWarning/);
    } catch (e) {
      child.kill('SIGINT');
      throw e;
    }
    return w;
  }

  it('list -w --timeout longer than a Node timer holds keeps watching until interrupted', async () => {
    const w = await startLongTimeout(['list', '-w']);
    w.child.kill('SIGINT');
    assert.equal(await w.exited, 1);
  });

  it('create --wait: key 0600, the request as asked, waits through approval to the issued certificate', async () => {
    const running = csr(['create', '--signer', 'example.com/widgets', '--name', 'w1', '--cn', 'alice', '--org', 'dev', '--org', 'ops',
      '--dns', 'alice.example', '--ip', '10.0.0.1', '--duration', '1h', '--wait', '--timeout', '25s', '--out-dir', out, ...kc()]);
    await until(() => exists('w1'), 'the CSR');
    const submitted = (await plat.admin.get(`${CSRS}/w1`)).json;
    assert.equal(submitted.spec.signerName, 'example.com/widgets');
    assert.equal(submitted.spec.username, 'plat-admin');
    assert.equal(submitted.spec.expirationSeconds, 3600);
    assert.deepEqual(submitted.spec.usages, ['digital signature', 'client auth']);
    const request = parseCsr(Buffer.from(submitted.spec.request, 'base64').toString());
    assert.equal(request.commonName, 'alice');
    assert.deepEqual(request.organizations, ['dev', 'ops']);
    // As client-go's MakeCSR (pkix.Name.ToRDNSequence): both O values in one RDN.
    assert.deepEqual(request.subject.map((rdn) => rdn.map((a) => `${a.shortName}=${a.value}`)), [['O=dev', 'O=ops'], ['CN=alice']]);
    assert.deepEqual([request.dnsNames, request.ipAddresses], [['alice.example'], ['10.0.0.1']]);
    const issued = await approveAndIssue('w1');
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    const keyFile = path.join(out, 'w1.key');
    const certFile = path.join(out, 'w1.crt');
    assert.equal(r.stdout, `certificatesigningrequest.certificates.platform/w1 created\nprivate key written to ${keyFile}\n`
      + `${r.stdout.includes('is approved, waiting') ? 'certificate signing request w1 is approved, waiting to be issued\n' : ''}certificate written to ${certFile}\n`);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(readFileSync(certFile, 'utf8'), issued);
    assert.ok(samePublicKey(readFileSync(keyFile, 'utf8'), parseCertificate(issued).publicKey.spki), 'the certificate is for the written key');
  });

  it('create: --dns and --ip are string slices (repeatable, comma-separated); wildcards and upper case are kept', async () => {
    const r = await csr(['create', '--signer', 'example.com/widgets', '--name', 'sans', '--dns', 'a.example,*.b.example', '--dns', 'C-1.Example',
      '--ip', '10.0.0.1,::1', '--ip', '192.0.2.7', '--out-dir', out, ...kc()]);
    assert.equal(r.code, 0, r.stderr);
    const request = parseCsr(Buffer.from((await plat.admin.get(`${CSRS}/sans`)).json.spec.request, 'base64').toString());
    assert.deepEqual(request.dnsNames, ['a.example', '*.b.example', 'C-1.Example']);
    assert.deepEqual(request.ipAddresses, ['10.0.0.1', '::1', '192.0.2.7']);
  });

  it('create never replaces an existing key file (a key in use, or a planted symlink): it stops before sending the request', async () => {
    const dir = tempDir('plat-csr-keep-');
    writeFileSync(path.join(dir, 'kept.key'), 'the key of a certificate in use\n', { mode: 0o600 });
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'not a key\n', { mode: 0o644 });
    symlinkSync(victim, path.join(dir, 'linked.key'));
    for (const name of ['kept', 'linked']) {
      const r = await csr(['create', '--signer', 'example.com/widgets', '--name', name, '--out-dir', dir, ...kc()]);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stderr, `plat csr create: ${path.join(dir, `${name}.key`)} already exists; remove it or choose another --name or --out-dir (an existing private key is never replaced)\n`);
      assert.equal((await plat.admin.get(`${CSRS}/${name}`)).status, 404, 'no request was sent');
    }
    assert.equal(readFileSync(path.join(dir, 'kept.key'), 'utf8'), 'the key of a certificate in use\n');
    assert.equal(readlinkSync(path.join(dir, 'linked.key')), victim);
    assert.equal(readFileSync(victim, 'utf8'), 'not a key\n');
    assert.ok(lstatSync(path.join(dir, 'linked.key')).isSymbolicLink());
  });

  it('a denial ends create --wait and wait with the denial\'s reason and message (exit 1)', async () => {
    const waiting = csr(['create', '--signer', 'example.com/widgets', '--name', 'd1', '--wait', '--timeout', '25s', '--out-dir', out, ...kc()]);
    await until(() => exists('d1'), 'd1');
    const deny = await csr(['deny', 'd1', '--reason', 'Nope', '--message', 'not today', ...kc()]);
    assert.equal(deny.code, 0, deny.stderr);
    assert.equal(deny.stdout, 'certificatesigningrequest.certificates.platform/d1 denied\n');
    const r = await waiting;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stderr, 'plat csr create: certificate signing request is denied, reason: Nope, message: not today\n');
    assert.ok(existsSync(path.join(out, 'd1.key')));
    assert.ok(!existsSync(path.join(out, 'd1.crt')));

    // A generated name, then `plat csr wait` on it, denied with kubectl's defaults.
    const created = await csr(['create', '--signer', 'example.com/widgets', '--key-type', 'ed25519', '--out-dir', out, ...kc()]);
    assert.equal(created.code, 0, created.stderr);
    const name = /certificates\.platform\/(csr-[a-z0-9]{5}) created/.exec(created.stdout)?.[1];
    assert.ok(name, created.stdout);
    const waiter = csr(['wait', name, '--timeout', '25s', ...kc()]);
    // Whether the deny lands before the wait's first list or during its watch, the outcome is the same.
    assert.equal((await csr(['deny', name, ...kc()])).code, 0);
    const w = await waiter;
    assert.equal(w.code, 1);
    assert.equal(w.stderr, 'plat csr wait: certificate signing request is denied, reason: KubectlDeny, message: This CSR was denied by kubectl certificate deny.\n');
  });

  it('wait prints or writes an issued certificate; a missing CSR and a timeout fail', async () => {
    const created = await csr(['create', '--signer', 'example.com/widgets', '--name', 'w2', '--key-type', 'rsa2048', '--out-dir', out, ...kc()]);
    assert.equal(created.code, 0, created.stderr);
    const spec = (await plat.admin.get(`${CSRS}/w2`)).json.spec;
    assert.deepEqual(spec.usages, ['digital signature', 'key encipherment', 'client auth'], 'RSA keys add key encipherment');
    const timedOut = await csr(['wait', 'w2', '--timeout', '1s', ...kc()]);
    assert.equal(timedOut.code, 1);
    assert.equal(timedOut.stderr, 'plat csr wait: timed out after 1s waiting for certificate signing request "w2" to be issued\n');
    // As kubectl wait: --timeout 0 checks once; a negative timeout waits a week, not no time at all.
    const once = await csr(['wait', 'w2', '--timeout', '0', ...kc()]);
    assert.deepEqual([once.code, once.stderr], [1, 'plat csr wait: certificate signing request "w2" is not issued (--timeout 0 checks once)\n']);
    const week = spawn(process.execPath, [platBin, 'csr', 'wait', 'w2', '--timeout=-1s', ...kc()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let weekCode: number | null | undefined;
    const weekExited = new Promise((r) => week.once('exit', (c) => { weekCode = c; r(c); }));
    await new Promise((r) => setTimeout(r, 1500));
    const stillWaiting = weekCode === undefined;
    week.kill('SIGINT');
    await weekExited;
    assert.ok(stillWaiting, `--timeout=-1s ended at once (exit ${weekCode})`);
    const issued = await approveAndIssue('w2');
    for (const timeout of ['0', '-1s']) {
      const r = await csr(['wait', 'w2', `--timeout=${timeout}`, ...kc()]);
      assert.deepEqual([r.code, r.stdout], [0, issued], r.stderr);
    }
    const printed = await csr(['wait', 'w2', ...kc()]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, issued);
    const dir = path.join(out, 'certs');
    const written = await csr(['wait', 'w2', '--out-dir', dir, ...kc()]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(readFileSync(path.join(dir, 'w2.crt'), 'utf8'), issued);
    // A directory that cannot be made is an error, not a hang (Node's recursive mkdir spins on procfs).
    const procfs = await csr(['wait', 'w2', '--out-dir', '/proc/plat-no-such-dir', ...kc()]);
    assert.equal(procfs.code, 1, procfs.stderr);
    assert.match(procfs.stderr, /mkdir \/proc\/plat-no-such-dir: no such file or directory/);
    const createProcfs = await csr(['create', '--signer', 'example.com/widgets', '--name', 'w3', '--out-dir', '/proc/plat-no-such-dir', ...kc()]);
    assert.equal(createProcfs.code, 1, createProcfs.stderr);
    assert.match(createProcfs.stderr, /cannot write the private key \/proc\/plat-no-such-dir\/w3\.key \(nothing was sent\): mkdir \/proc\/plat-no-such-dir: no such file or directory/);
    assert.equal((await plat.admin.get(`${CSRS}/w3`)).status, 404);
    // create --wait that gives up says how to pick the certificate up later, and that works.
    const gaveUp = await csr(['create', '--signer', 'example.com/widgets', '--name', 'w4', '--wait', '--timeout', '1s', '--out-dir', out, ...kc()]);
    assert.equal(gaveUp.code, 1);
    assert.equal(gaveUp.stderr, `plat csr create: timed out after 1s waiting for certificate signing request "w4" to be issued; the request stays: \`plat csr wait w4 --out-dir ${out}\` writes its certificate next to the key once it is issued\n`);
    const later = await approveAndIssue('w4');
    const pickedUp = await csr(['wait', 'w4', '--out-dir', out, ...kc()]);
    assert.equal(pickedUp.code, 0, pickedUp.stderr);
    assert.equal(readFileSync(path.join(out, 'w4.crt'), 'utf8'), later);
    assert.ok(readFileSync(path.join(out, 'w4.key'), 'utf8').startsWith('-----BEGIN PRIVATE KEY-----'));
    const missing = await csr(['wait', 'nope', ...kc()]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'plat csr wait: Error from server (NotFound): certificatesigningrequests.certificates.platform "nope" not found\n');
  });

  it('create -o and wait -o: stdout has the object alone (created, or issued with --wait), the progress lines go to stderr', async () => {
    const json = await csr(['create', '--signer', 'example.com/widgets', '--name', 'o1', '--cn', 'o-one', '-o', 'json', '--out-dir', out, ...kc()]);
    assert.equal(json.code, 0, json.stderr);
    const created = JSON.parse(json.stdout);
    assert.deepEqual([created.kind, created.metadata.name, created.spec.signerName], ['CertificateSigningRequest', 'o1', 'example.com/widgets']);
    assert.equal(created.metadata.managedFields, undefined);
    assert.equal(created.metadata.uid, (await plat.admin.get(`${CSRS}/o1`)).json.metadata.uid, 'the server\'s answer, not the request sent');
    assert.equal(json.stderr, `certificatesigningrequest.certificates.platform/o1 created\nprivate key written to ${path.join(out, 'o1.key')}\n`);

    const waiting = csr(['create', '--signer', 'example.com/widgets', '--name', 'o2', '--wait', '--timeout', '25s', '-o', 'name', '--out-dir', out, ...kc()]);
    await until(() => exists('o2'), 'o2');
    const issued = await approveAndIssue('o2');
    const named = await waiting;
    assert.deepEqual([named.code, named.stdout], [0, 'certificatesigningrequest.certificates.platform/o2\n'], named.stderr);
    // The approval and the certificate are two writes: the wait may see the approved CSR between them.
    assert.match(named.stderr, /private key written to .*o2\.key\n(certificate signing request o2 is approved, waiting to be issued\n)?certificate written to .*o2\.crt\n$/);
    assert.equal(readFileSync(path.join(out, 'o2.crt'), 'utf8'), issued);

    const yaml = await csr(['wait', 'o2', '-o', 'yaml', ...kc()]);
    assert.equal(yaml.code, 0, yaml.stderr);
    const waited = parseYaml(yaml.stdout);
    assert.equal(Buffer.from(waited.status.certificate, 'base64').toString(), issued);
    assert.ok(waited.status.conditions.some((c: { type: string }) => c.type === 'Approved'));
    const dir = path.join(out, 'o-certs');
    const both = await csr(['wait', 'o2', '-ojson', '--out-dir', dir, ...kc()]);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(JSON.parse(both.stdout).metadata.name, 'o2');
    assert.equal(both.stderr, `certificate written to ${path.join(dir, 'o2.crt')}\n`);
    assert.equal(readFileSync(path.join(dir, 'o2.crt'), 'utf8'), issued);
    const once = await csr(['wait', 'o2', '--timeout', '0', '-o', 'name', ...kc()]);
    assert.deepEqual([once.code, once.stdout], [0, 'certificatesigningrequest.certificates.platform/o2\n'], once.stderr);

    for (const args of [['create', '--signer', 'example.com/widgets', '-o', 'wide'], ['wait', 'o2', '-o', 'table']]) {
      const r = await csr([...args, ...kc()]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /--output|-o/);
    }
  });

  it('wait --timeout longer than a Node timer holds waits on to the certificate', async () => {
    const created = await csr(['create', '--signer', 'example.com/widgets', '--name', 'w5', '--key-type', 'ed25519', '--out-dir', out, ...kc()]);
    assert.equal(created.code, 0, created.stderr);
    const w = await startLongTimeout(['wait', 'w5']);
    try {
      const issued = await approveAndIssue('w5');
      assert.equal(await w.exited, 0, w.stderr);
      assert.equal(w.stdout, issued);
    } finally {
      w.child.kill('SIGINT');
    }
  });

  it('get and list: the kubectl table, JSON, YAML and names', async () => {
    const one = await csr(['get', 'w1', ...kc()]);
    assert.equal(one.code, 0, one.stderr);
    const [header, row, ...rest] = one.stdout.split('\n');
    // The AGE column is as wide as the age, which a slow run makes longer than AGE ("105s").
    const head = /^NAME {3}AGE( +)SIGNERNAME {12}REQUESTOR {4}REQUESTEDDURATION {3}CONDITION$/.exec(header!);
    const cells = /^w1 {5}(\S+)( +)example\.com\/widgets {3}plat-admin {3}60m {17}Approved,Issued$/.exec(row!);
    assert.ok(head && cells, `${header}\n${row}`);
    assert.equal('AGE'.length + head[1]!.length, cells[1]!.length + cells[2]!.length, `SIGNERNAME aligned:\n${header}\n${row}`);
    assert.equal(Math.min(head[1]!.length, cells[2]!.length), 3, `three spaces after the wider of AGE and the age:\n${header}\n${row}`);
    assert.deepEqual(rest, ['']);
    const json = await csr(['get', 'w1', '-o', 'json', ...kc()]);
    assert.equal(JSON.parse(json.stdout).metadata.name, 'w1');
    const yaml = await csr(['get', 'w1', '-o', 'yaml', ...kc()]);
    assert.equal(parseYaml(yaml.stdout).spec.signerName, 'example.com/widgets');
    // As kubectl's printers: managedFields only with --show-managed-fields.
    assert.equal(JSON.parse(json.stdout).metadata.managedFields, undefined, json.stdout);
    assert.doesNotMatch(yaml.stdout, /managedFields/);
    const shown = JSON.parse((await csr(['get', 'w1', '-o', 'json', '--show-managed-fields', ...kc()])).stdout);
    assert.deepEqual(shown.metadata.managedFields, (await plat.admin.get(`${CSRS}/w1`)).json.metadata.managedFields);
    assert.deepEqual(Object.keys(JSON.parse(json.stdout).metadata), Object.keys(shown.metadata).filter((k) => k !== 'managedFields'), 'key order kept');
    assert.doesNotMatch((await csr(['list', '-o', 'yaml', ...kc()])).stdout, /managedFields/);
    assert.match((await csr(['list', '-o', 'yaml', '--show-managed-fields', ...kc()])).stdout, /managedFields/);
    const list = await csr(['list', ...kc()]);
    assert.equal(list.code, 0, list.stderr);
    const names = list.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]);
    assert.ok(names.includes('w1') && names.includes('d1') && names.includes('w2'), list.stdout);
    assert.match(list.stdout, /^d1 +\S+ +example\.com\/widgets +plat-admin +<none> +Denied$/m);
    // kubectl get -o json|yaml wraps the objects in a v1 List of its own, not the server's list.
    const listJson = JSON.parse((await csr(['list', '-o', 'json', ...kc()])).stdout);
    assert.deepEqual([listJson.apiVersion, listJson.kind, listJson.metadata], ['v1', 'List', { resourceVersion: '' }]);
    assert.ok(listJson.items.some((o: { kind: string; metadata: { name: string } }) => o.kind === 'CertificateSigningRequest' && o.metadata.name === 'w1'));
    const listYaml = (await csr(['list', '-o', 'yaml', ...kc()])).stdout;
    assert.ok(listYaml.startsWith('apiVersion: v1\nitems:\n- apiVersion: certificates.platform/v1\n'), listYaml.slice(0, 200));
    assert.ok(listYaml.endsWith('\nkind: List\nmetadata:\n  resourceVersion: ""\n'), listYaml.slice(-200));
    // -o wide: the CSR printer has no priority columns, so kubectl prints the same table (checked
    // against kubectl get certificatesigningrequests.v1.certificates.platform -o wide).
    // Cells but AGE, which may tick between the two runs (and change the column's width).
    const age = (text: string) => text.split('\n').map((l) => l.split(/ {3,}/).filter((_, i) => i !== 1));
    for (const args of [['get', 'w1'], ['list']]) {
      const [plain, wide] = [await csr([...args, ...kc()]), await csr([...args, '-o', 'wide', ...kc()])];
      assert.equal(wide.code, 0, wide.stderr);
      assert.deepEqual(age(wide.stdout), age(plain.stdout));
    }
    const byName = await csr(['list', '-o', 'name', ...kc()]);
    assert.match(byName.stdout, /^certificatesigningrequest\.certificates\.platform\/w1$/m);

    // Several names, as kubectl get NAME NAME: one table, a List, a name per line; a missing name
    // is said after the objects found, with exit 1; -w follows one object only.
    const two = await csr(['get', 'w1', 'd1', ...kc()]);
    assert.equal(two.code, 0, two.stderr);
    assert.deepEqual(two.stdout.split('\n').map((l) => l.split(' ')[0]), ['NAME', 'w1', 'd1', '']);
    const twoJson = JSON.parse((await csr(['get', 'w1', 'd1', '-o', 'json', ...kc()])).stdout);
    assert.deepEqual([twoJson.kind, twoJson.items.map((o: { metadata: { name: string } }) => o.metadata.name)], ['List', ['w1', 'd1']]);
    const twoNames = await csr(['get', 'w1', 'd1', '-o', 'name', ...kc()]);
    assert.equal(twoNames.stdout, 'certificatesigningrequest.certificates.platform/w1\ncertificatesigningrequest.certificates.platform/d1\n');
    const partly = await csr(['get', 'w1', 'nope', 'd1', ...kc()]);
    assert.equal(partly.code, 1);
    assert.deepEqual(partly.stdout.split('\n').map((l) => l.split(' ')[0]), ['NAME', 'w1', 'd1', '']);
    assert.equal(partly.stderr, 'plat csr get: Error from server (NotFound): certificatesigningrequests.certificates.platform "nope" not found\n');
    // As kubectl get -w NAME NAME: the objects, then the refusal; with a name missing, only the first error.
    const watchTwo = await csr(['get', 'w1', 'd1', '-w', '-o', 'name', ...kc()]);
    assert.deepEqual([watchTwo.code, watchTwo.stdout, watchTwo.stderr], [1, twoNames.stdout, 'plat csr get: you may only watch a single resource or type of resource at a time\n']);
    const watchMissing = await csr(['get', 'w1', 'nope', 'nope2', '-w', ...kc()]);
    assert.deepEqual([watchMissing.code, watchMissing.stdout, watchMissing.stderr],
      [1, '', 'plat csr get: Error from server (NotFound): certificatesigningrequests.certificates.platform "nope" not found\n']);

    // list -l and --field-selector ask the server, as kubectl get -l and --field-selector.
    const labelled = baseCsr(fixtures(), 'labelled');
    labelled.metadata.labels = { team: 'blue' };
    labelled.spec.signerName = 'example.com/gadgets';
    assert.equal((await plat.admin.post(CSRS, labelled)).status, 201);
    for (const args of [['-l', 'team=blue'], ['-l', 'team in (blue,green)'], ['--field-selector', 'spec.signerName=example.com/gadgets']]) {
      const r = await csr(['list', ...args, '-o', 'name', ...kc()]);
      assert.deepEqual([r.code, r.stdout], [0, 'certificatesigningrequest.certificates.platform/labelled\n'], `${args.join(' ')}: ${r.stderr}`);
    }
    const none = await csr(['list', '-l', 'team=red', ...kc()]);
    assert.deepEqual([none.code, none.stdout, none.stderr], [0, '', 'No resources found\n']);
    // A refused selector is said as cli-runtime's EnhanceListError says it.
    const badField = await csr(['list', '--field-selector', 'spec.color=red', ...kc()]);
    assert.equal(badField.code, 1);
    assert.match(badField.stderr, /^plat csr list: Error from server \(BadRequest\): Unable to find "certificates\.platform\/v1, Resource=certificatesigningrequests" that match label selector "", field selector "spec\.color=red": .*spec\.color/);
    const badLabel = await csr(['list', '-l', 'x=y,', ...kc()]);
    assert.deepEqual([badLabel.code, badLabel.stderr], [1, 'plat csr list: Error from server (BadRequest): Unable to find "certificates.platform/v1, Resource=certificatesigningrequests" that match label selector "x=y,", field selector "": found \'\', expected: identifier after \',\'\n']);
  });

  it('list -w and get NAME -w print a line (or a YAML document) per change until interrupted', async () => {
    const watch = (args: string[]) => {
      const child = spawn(process.execPath, [platBin, 'csr', ...args, '-w', ...kc()], { stdio: ['ignore', 'pipe', 'pipe'] });
      const w = { stdout: '', exited: new Promise<number | null>((r) => child.once('exit', (code) => r(code))), child };
      child.stdout.on('data', (d: Buffer) => { w.stdout += d.toString(); });
      return w;
    };
    const table = watch(['list']);
    const yaml = watch(['list', '-o', 'yaml']);
    const one = watch(['get', 'w2']);
    try {
      await until(async () => table.stdout.includes('w1') && yaml.stdout.includes('name: w1') && one.stdout.includes('w2'), 'the initial list');
      assert.ok(!/^watched /m.test(table.stdout));
      assert.equal((await plat.admin.post(CSRS, { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'watched' },
        spec: (await plat.admin.get(`${CSRS}/w1`)).json.spec })).status, 201);
      await until(async () => /^watched +\S+ +example\.com\/widgets +plat-admin +60m +Pending$/m.test(table.stdout), 'the new CSR\'s line');
      await until(async () => yaml.stdout.includes('name: watched'), 'the new CSR\'s document');
      const w2 = (await plat.admin.get(`${CSRS}/w2`)).json;
      assert.equal((await plat.admin.put(`${CSRS}/w2`, { ...w2, metadata: { ...w2.metadata, labels: { changed: 'yes' } } })).status, 200);
      await until(async () => one.stdout.split('\n').filter((l) => l.startsWith('w2 ')).length === 2, 'the changed CSR\'s second line');
    } finally {
      for (const w of [table, yaml, one]) w.child.kill('SIGINT');
    }
    for (const w of [table, yaml, one]) assert.equal(await w.exited, 1);
    // get NAME -w follows that one name: the header, its row, the row again after the change.
    assert.match(one.stdout, /^NAME +AGE +SIGNERNAME +REQUESTOR +REQUESTEDDURATION +CONDITION\n(w2 +\S+ +example\.com\/widgets +plat-admin +<none> +Approved,Issued\n){2}$/);
    // As kubectl get -w -o yaml: every document after the first, a watch event's too, starts with ---.
    const docs = yaml.stdout.split(/^---\n/m);
    assert.ok(docs.length > 1 && docs.every((d) => d.startsWith('apiVersion: certificates.platform/v1\n') && d.match(/^apiVersion: /gm)?.length === 1), yaml.stdout);
  });

  it('finds the kubeconfig in --kubeconfig, $PLATCONFIG, $KUBECONFIG, then .plat/admin.conf', async () => {
    assert.equal((await csr(['get', 'w1'], { PLATCONFIG: plat.kubeconfig })).code, 0);
    assert.equal((await csr(['get', 'w1'], { KUBECONFIG: ['/nonexistent/config', plat.kubeconfig].join(path.delimiter) })).code, 0);
    const home = tempDir('plat-csr-cwd-');
    // HOME too: a ~/.kube/config comes before .plat/admin.conf.
    const none = await csr(['get', 'w1'], { HOME: home }, home);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /\.plat\/admin\.conf/);
    mkdirSync(path.join(home, '.plat'));
    copyFileSync(plat.kubeconfig, path.join(home, '.plat', 'admin.conf'));
    assert.equal((await csr(['get', 'w1'], { HOME: home }, home)).code, 0);
    // The kubeconfig overrides are wired: a context that is not there is said, not ignored.
    const noContext = await csr(['get', 'w1', '--context', 'nope', ...kc()]);
    assert.deepEqual([noContext.code, noContext.stderr], [1, `plat csr get: kubeconfig ${plat.kubeconfig}: context was not found for specified context: nope\n`]);
    const both = await csr(['get', 'w1', '--kubeconfig', plat.kubeconfig, '--platconfig', '/other']);
    assert.equal(both.code, 2);
  });

  it('a server certificate the kubeconfig does not trust is said as kubectl says it (exit 1)', async () => {
    const dir = tempDir('plat-csr-untrusted-');
    const other = Buffer.from(makeCa({ commonName: 'another-ca' }).certificatePem).toString('base64');
    const text = readFileSync(plat.kubeconfig, 'utf8').replace(/certificate-authority-data: \S+/, `certificate-authority-data: ${other}`);
    const file = path.join(dir, 'untrusted.conf');
    writeFileSync(file, text);
    const r = await csr(['list', '--kubeconfig', file]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr.trim(), 'plat csr list: Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority');
  });

  it('an unknown token and an invalid request are said as kubectl says them (exit 1)', async () => {
    const config = parseYaml(readFileSync(plat.kubeconfig, 'utf8'));
    config.users = [{ name: config.users[0].name, user: { token: 'not-a-known-token' } }];
    const file = path.join(tempDir('plat-csr-unauth-'), 'unknown-token.conf');
    writeFileSync(file, JSON.stringify(config));
    const unauthorized = await csr(['list', '--kubeconfig', file]);
    assert.deepEqual([unauthorized.code, unauthorized.stderr], [1, 'plat csr list: You must be logged in to the server (Unauthorized)\n']);
    const invalid = await csr(['create', '--signer', 'nodomain', '--name', 'inv', '--out-dir', out, ...kc()]);
    assert.deepEqual([invalid.code, invalid.stderr], [1, 'plat csr create: The CertificateSigningRequest "inv" is invalid: spec.signerName: Invalid value: "nodomain": '
      + 'must be a fully qualified domain and path of the form \'example.com/signer-name\'\n']);
  });

  it('a server nobody listens at is said as kubectl says it (exit 1)', async () => {
    // Not a port freePort() just gave back: a test file running beside this one may listen there.
    const port = 1;
    const file = path.join(tempDir('plat-csr-refused-'), 'refused.conf');
    // kubectl names the kubeconfig's host, not the address it resolved to (localhost may be ::1 and 127.0.0.1).
    writeFileSync(file, readFileSync(plat.kubeconfig, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://localhost:${port}`));
    const r = await csr(['list', '--kubeconfig', file]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, `plat csr list: The connection to the server localhost:${port} was refused - did you specify the right host or port?\n`);
  });

  it('refuses command-line mistakes with exit 2', async () => {
    for (const [args, message] of [
      [['create', '--name', 'x'], '--signer is required'],
      [['create', '--signer', 'a.b/c', '--ip', 'nope'], '"nope" is not an IP address'],
      [['create', '--signer', 'a.b/c', '--ip', '10.0.0.1,nope'], '"nope" is not an IP address'],
      [['create', '--signer', 'a.b/c', '--dns', 'a b'], 'plat csr create: invalid argument "a b" for "--dns" flag: "a b" is not a DNS name (labels of'],
      [['create', '--signer', 'a.b/c', '--dns', 'ok.example', '--dns', 'a.example,-b.example'], '"-b.example" is not a DNS name'],
      [['create', '--signer', 'a.b/c', '--dns', 'f*.example'], '"f*.example" is not a DNS name'],
      [['create', '--signer', 'a.b/c', '--dns', 'a..example'], '"a..example" is not a DNS name'],
      [['create', '--signer', 'a.b/c', '--dns', 'a,,b'], '"" is not a DNS name (empty)'],
      [['create', '--signer', 'a.b/c', '--dns', 'ü.example'], '"ü.example" is not a DNS name (only ASCII: give an internationalized name in its xn-- form)'],
      [['create', '--signer', 'a.b/c', '--key-type', 'dsa'], 'invalid argument "dsa"'],
      [['create', '--signer', 'a.b/c', '--duration', '5m'], 'must be at least 10m0s'],
      // 0 is what leaving the flag out means (the signer's lifetime), not a lifetime to ask for.
      [['create', '--signer', 'a.b/c', '--duration', '0'], 'plat csr create: invalid argument "0" for "--duration" flag: must be at least 10m0s\n'],
      [['create', '--signer', 'a.b/c', '--duration', '0s'], 'plat csr create: invalid argument "0s" for "--duration" flag: must be at least 10m0s\n'],
      // Go's net.ParseIP takes no IPv6 zone (Node's isIP does).
      [['create', '--signer', 'a.b/c', '--ip', 'fe80::1%eth0'], 'plat csr create: invalid argument "fe80::1%eth0" for "--ip" flag: "fe80::1%eth0" is not an IP address\n'],
      [['create', '--signer', 'a.b/c', '--duration', '700000h'], 'must be less than 596523h14m8s'],
      [['create', '--signer', 'a.b/c', '--usages', 'client auth,flying'], 'unknown usage "flying"'],
      [['get'], 'one or more NAMEs are required (plat csr list lists them all)'],
      [['approve'], 'one or more CSRs must be specified as <name>'],
      [['frobnicate'], 'unknown command "frobnicate"'],
      // Names no request path can carry, refused before anything is sent, in client-go's words.
      [['get', ''], 'plat csr get: resource name may not be empty\n'],
      [['get', '.'], 'plat csr get: invalid resource name ".": [may not be \'.\']\n'],
      [['get', '..', '-w'], 'plat csr get: invalid resource name "..": [may not be \'..\']\n'],
      [['wait', '..'], 'plat csr wait: invalid resource name "..": [may not be \'..\']\n'],
      [['approve', 'w1', ''], 'plat csr approve: resource name may not be empty\n'],
      [['deny', 'a/b%'], 'plat csr deny: invalid resource name "a/b%": [may not contain \'/\' may not contain \'%\']\n'],
      [['create', '--signer', 'a.b/c', '--name', 'sub/x', '--out-dir', out], 'plat csr create: invalid resource name "sub/x": [may not contain \'/\']\n'],
    ] as const) {
      const r = await csr([...args, ...kc()]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(message.endsWith('\n') ? r.stderr === message : r.stderr.includes(message), `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '', args.join(' '));
    }
    // Nothing was approved by the command that named w1 and '' (the names are checked first).
    assert.ok(!((await plat.admin.get(`${CSRS}/w1`)).json.status?.conditions ?? []).some((c: { reason: string }) => c.reason === 'KubectlApprove'));
    assert.ok(!existsSync(path.join(out, 'sub')));
  });
});

describe('plat csr and the Warning headers of an answer', () => {
  let plat: RunningPlat;
  const WARNER = 'WarningAdmission';
  // An admission plugin that adds a warning to every CSR create and refuses one signer, warning first.
  const warner: Plugin = {
    name: WARNER,
    apply(host) {
      host.hooks.admitMutate.tapPromise(WARNER, async (req) => {
        if (req.resource !== 'certificatesigningrequests' || req.operation !== 'CREATE') return;
        req.warnings.push('the "team" label is "blue"');
        if ((req.object?.['spec'] as { signerName?: string } | undefined)?.signerName === 'example.com/refused') throw new Error('refused signer');
      });
    },
  };
  before(async () => { plat = await startInProcess({ plugins: [warner] }); });
  after(async () => { await plat?.stop(); });

  it('prints them on stderr as kubectl does, on success and on refusal', async () => {
    const out = tempDir('plat-csr-warn-');
    const args = (name: string, signer: string) => ['csr', 'create', '--signer', signer, '--name', name, '--cn', 'w', '--out-dir', out, '--kubeconfig', plat.kubeconfig];
    const ok = await runPlatAsync(args('warned', 'example.com/widgets'), { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, 'Warning: the "team" label is "blue"\n');
    const refused = await runPlatAsync(args('refused', 'example.com/refused'), { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    assert.equal(refused.code, 1, refused.stderr);
    assert.ok(refused.stderr.startsWith('Warning: the "team" label is "blue"\nplat csr create: Error from server (Forbidden): '), refused.stderr);
  });
});
