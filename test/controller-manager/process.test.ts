// `plat controller-manager` as real processes against a real plat: it serves /healthz on its
// port and runs its controllers; with --leader-elect exactly one of two processes leads (the
// Lease holder) and, when the leader is killed with SIGKILL, the other takes over within the
// lease duration, and when it is SIGSTOPped past the lease duration (woken, the old leader finds
// the Lease taken and exits 1, having written nothing); a leader whose Lease is taken away exits 1
// ("leaderelection lost") at once, even with a controller that has not returned; SIGTERM
// stops it cleanly (exit 0, Lease released), or with exit 1 when a controller outlives
// --controller-shutdown-timeout. Start-up mistakes exit with a message before anything runs.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, freePort, repoRoot, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlat, startPlat, type Background } from '../helpers/run-plat.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { labelOf } from './fixtures/test-controllers.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import { until, adminKubeconfig } from './support.js';
import type { Plugin } from '../../core/plugin.js';

/**
 * While `slowLeaseReads.on`, a read of Lease plat-system/fenced waits that long at the API server
 * before its authorization goes on: a woken leader's renewal (a read, its lease having run out
 * by its own clock) then cannot tell it the Lease is gone before its workers have handled the
 * watch events that waited during the pause, as a slower network or API server would.
 */
const slowLeaseReads = { on: false, ms: 1500 };
const SlowLeaseReadsForTests: Plugin = {
  name: 'SlowLeaseReadsForTests',
  apply(host) {
    host.hooks.authorize.tapPromise({ name: 'SlowLeaseReadsForTests', stage: -Infinity }, async (a) => {
      if (slowLeaseReads.on && a.resource === 'leases' && a.name === 'fenced' && a.verb === 'get') await new Promise((r) => setTimeout(r, slowLeaseReads.ms));
      return undefined;
    });
  },
};

const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';
const FAST_ELECTION = ['--leader-elect-lease-duration=2s', '--leader-elect-renew-deadline=1500ms', '--leader-elect-retry-period=500ms'];
const FIXTURE = path.join(repoRoot, 'dist/test/controller-manager/fixtures/test-controllers.js');

/** A plat config file loading the test controllers with this process's id. */
function testConfig(id: string): Record<string, string> {
  const file = path.join(tempDir(), 'plat.config.json');
  writeFileSync(file, JSON.stringify({ plugins: [[FIXTURE, { id }]] }));
  return { PLAT_CONFIG: file };
}

const exited = (p: Background) => new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve({ code: p.child.exitCode, signal: p.child.signalCode });
  p.child.once('exit', (code, signal) => resolve({ code, signal }));
});

/** The exit, or 'still running' once `ms` have passed without one. */
const exitedWithin = (p: Background, ms: number) => Promise.race([
  exited(p), new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms).unref()),
]);

/** Writes `holder` into the Lease at `url` as a fresh, long holding; the leader renews beside us, so a conflict is read again. */
async function takeLease(admin: RunningPlat['admin'], url: string, holder: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = (await admin.get(url)).json;
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    const put = await admin.put(url, { ...current, spec: { ...current.spec, holderIdentity: holder, renewTime: now, leaseDurationSeconds: 60 } });
    if (put.status === 200) return;
    assert.equal(put.status, 409, put.text);
  }
  assert.fail('the Lease could not be written between two renewals');
}

// The LeaderElection event names the identity (logged before `successfully acquired lease`, as upstream's acquire records it).
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

/** Creates each CSR and approves it, as an admin would. */
async function createApproved(admin: RunningPlat['admin'], bodies: Array<{ metadata: { name: string } }>): Promise<void> {
  for (const body of bodies) {
    const created = await admin.post(CSRS, body);
    assert.equal(created.status, 201, created.text);
    const approved = await admin.put(`${CSRS}/${body.metadata.name}/approval`, { ...created.json, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
    assert.equal(approved.status, 200, approved.text);
  }
}

const identityOf = (p: Background): string => /reason="LeaderElection" message="(\S+) became leader"/.exec(p.output())?.[1] ?? '';

describe('plat controller-manager processes', () => {
  let plat: RunningPlat;
  let admin: string;
  const procs: Background[] = [];
  const cm = async (id: string, args: string[], ready: RegExp) => {
    const p = await startPlat(['controller-manager', '--platconfig', admin, ...args], ready, { cwd: tempDir(), env: testConfig(id) });
    procs.push(p);
    return p;
  };
  const labels = async (): Promise<Record<string, string>> => (await plat.admin.get('/api/v1/namespaces/default')).json.metadata.labels ?? {};
  const lease = async () => (await plat.admin.get(LEASE)).json;

  before(async () => {
    plat = await startInProcess();
    admin = adminKubeconfig(plat);
  });
  after(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await plat?.stop();
  });

  it('serves /healthz on its port and runs its controllers; SIGTERM stops it with exit 0', async () => {
    const port = await freePort();
    const certDir = tempDir();
    const p = await cm('solo', ['--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${port}`, `--cert-dir=${certDir}`],
      new RegExp(`Serving securely on 127\\.0\\.0\\.1:${port}`));
    const servingPem = readFileSync(path.join(certDir, 'plat-controller-manager.crt'), 'utf8');
    // Named as kube-controller-manager names its own: localhost@<unix time>, by localhost-ca@<same>.
    const [leaf, ca] = servingPem.split(/(?<=-----END CERTIFICATE-----\n)/).map((pem) => new X509Certificate(pem));
    const stamp = /^CN=localhost@(\d+)$/.exec(leaf!.subject)?.[1];
    assert.ok(stamp, leaf!.subject);
    assert.equal(ca!.subject, `CN=localhost-ca@${stamp}`);
    assert.equal(leaf!.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1');
    const endpoint = new Client(`https://127.0.0.1:${port}`, { ca: servingPem });
    const health = await endpoint.get('/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.text, 'ok');
    await until(async () => { const l = await labels(); return l[labelOf('marker-a')] === 'solo' && l[labelOf('marker-b')] === 'solo'; }, 'the controllers label the namespace');
    p.child.kill('SIGTERM');
    assert.deepEqual(await exited(p), { code: 0, signal: null });
    assert.match(p.output(), /received SIGTERM, shutting down/);
  });

  it('elects one leader of two; SIGKILL the leader and the other takes over within the lease duration', async () => {
    const a = await cm('cm-a', ['--secure-port=0', ...FAST_ELECTION], /successfully acquired lease/);
    const aId = identityOf(a);
    assert.match(aId, /^.+_[0-9a-f-]{36}$/, 'identity is hostname_uuid');
    assert.equal((await lease()).spec.holderIdentity, aId);
    await until(async () => (await labels())[labelOf('marker-a')] === 'cm-a', 'the leader runs its controllers');

    const b = await cm('cm-b', ['--secure-port=0', ...FAST_ELECTION], /attempting to acquire leader lease/);
    // Several retry periods in which b campaigns and must not win while a renews.
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 500));
      assert.doesNotMatch(b.output(), /successfully acquired lease/);
      assert.equal((await lease()).spec.holderIdentity, aId);
    }
    const transitions = (await lease()).spec.leaseTransitions ?? 0;

    a.child.kill('SIGKILL');
    assert.equal((await exited(a)).signal, 'SIGKILL');
    // Lease duration 2s: b observes the last renewal and takes over once 2s have passed without one.
    await until(async () => /successfully acquired lease/.test(b.output()), 'b takes over', 50, 100);
    const bId = identityOf(b);
    const taken = await lease();
    assert.equal(taken.spec.holderIdentity, bId);
    assert.equal(taken.spec.leaseTransitions, transitions + 1);
    await until(async () => (await labels())[labelOf('marker-a')] === 'cm-b', 'the new leader runs its controllers');

    b.child.kill('SIGTERM');
    assert.deepEqual(await exited(b), { code: 0, signal: null });
    const released = await lease();
    // Upstream's release record: holder "" (written), 1 s, acquired and renewed at the release, transitions kept.
    assert.deepEqual(released.spec, {
      holderIdentity: '', leaseDurationSeconds: 1, acquireTime: released.spec.renewTime, renewTime: released.spec.renewTime, leaseTransitions: transitions + 1,
    }, 'a clean stop hands the Lease over');
  });

  it('exits 1 with "leaderelection lost" when it cannot renew its Lease', async () => {
    const p = await cm('loser', ['--secure-port=0', ...FAST_ELECTION], /successfully acquired lease/);
    await takeLease(plat.admin, LEASE, 'intruder');
    assert.deepEqual(await exited(p), { code: 1, signal: null });
    assert.match(p.output(), /E\d{4} [\d:.]+ plat\/controller-manager\] leaderelection lost/);
    assert.equal((await lease()).spec.holderIdentity, 'intruder');
  });

  it('a leader whose Lease is taken exits 1 at once, without waiting for a controller that has not returned (--controller-shutdown-timeout=0)', async () => {
    // Upstream's OnStoppedLeading exits the process (klog.FlushAndExit) while its controllers run.
    const p = await cm('lost-stuck', ['--secure-port=0', '--controllers=stuck', '--controller-shutdown-timeout=0', '--leader-elect-resource-name=lost-stuck', ...FAST_ELECTION, '-v=1'],
      /Starting controller controller="stuck"/);
    await takeLease(plat.admin, `${LEASE.replace(/[^/]+$/, '')}lost-stuck`, 'intruder');
    assert.deepEqual(await exitedWithin(p, 15_000), { code: 1, signal: null }, p.output());
    assert.match(p.output(), /\] leaderelection lost\n/);
    assert.doesNotMatch(p.output(), /Controller shutdown timeout reached|shutdown failed/);
  });

  it('a leader that lost its Lease (cut off past the renew deadline) does not write it on the way out', async () => {
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    try {
      const kubeconfig = path.join(tempDir(), 'via-proxy.conf');
      writeFileSync(kubeconfig, readFileSync(admin, 'utf8').replace(plat.url, `https://127.0.0.1:${proxy.port}`));
      const p = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port=0', '--controllers=', '--leader-elect-resource-name=cut-off',
        ...FAST_ELECTION], /successfully acquired lease/, { cwd: tempDir(), env: testConfig('cut-off') });
      procs.push(p);
      const id = identityOf(p);
      proxy.stall();
      await until(async () => /leaderelection lost/.test(p.output()), 'the leader gives up', 100, 100);
      // The partition heals as the process stops: its requests would reach the API server now.
      proxy.resume();
      assert.deepEqual(await exited(p), { code: 1, signal: null }, p.output());
      const lease = (await plat.admin.get(`${LEASE.replace(/[^/]+$/, '')}cut-off`)).json;
      assert.equal(lease.spec.holderIdentity, id, 'the Lease is left to expire, as upstream: no release after a loss');
      assert.doesNotMatch(p.output(), /Failed to release lock/);
    } finally {
      await proxy.close();
    }
  });

  it('exits 1 when a controller outlives --controller-shutdown-timeout', async () => {
    const p = await cm('stuck', ['--secure-port=0', '--leader-elect=false', '--controllers=stuck', '--controller-shutdown-timeout=500ms', '-v=1'], /Starting controller controller="stuck"/);
    p.child.kill('SIGTERM');
    assert.deepEqual(await exited(p), { code: 1, signal: null });
    assert.match(p.output(), /Controller shutdown timeout reached timeout="500ms" runningControllers=\["stuck"\]/);
    assert.match(p.output(), /shutdown failed error="controllers did not stop within --controller-shutdown-timeout=500ms \(still running: stuck\)"/);
  });

  it('a second SIGTERM while stopping exits 1 at once, as upstream', async () => {
    const p = await cm('twice', ['--secure-port=0', '--leader-elect=false', '--controllers=stuck', '--controller-shutdown-timeout=0', '-v=1'], /Starting controller controller="stuck"/);
    p.child.kill('SIGTERM');
    await until(async () => p.output().includes('received SIGTERM, shutting down'), 'the first SIGTERM is taken');
    p.child.kill('SIGTERM');
    assert.deepEqual(await exited(p), { code: 1, signal: null });
    assert.match(p.output(), /received SIGTERM again, exiting without waiting\n$/);
  });

  it('SIGTERM while the API server does not answer: the controllers stop, exit 0, nothing blamed on them', async () => {
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    try {
      const kubeconfig = path.join(tempDir(), 'via-proxy.conf');
      writeFileSync(kubeconfig, readFileSync(admin, 'utf8').replace(plat.url, `https://127.0.0.1:${proxy.port}`));
      // A long lease: the process keeps leading through the test, so only the stop is at stake.
      const p = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port=0', '--controllers=marker-a',
        '--leader-elect-resource-name=frozen', '--leader-elect-lease-duration=60s', '--leader-elect-renew-deadline=40s',
        '--leader-elect-retry-period=500ms', '--controller-shutdown-timeout=1s', '-v=1'],
      /Starting controller controller="marker-a"/, { cwd: tempDir(), env: testConfig('frozen') });
      procs.push(p);
      // Stall only once marker-a is idle (every Namespace labelled and the echo seen), so no
      // controller is inside a request when the API server goes quiet.
      await until(async () => ((await plat.admin.get('/api/v1/namespaces')).json.items as { metadata: { labels?: Record<string, string> } }[])
        .every((ns) => ns.metadata.labels?.[labelOf('marker-a')] === 'frozen'), 'marker-a labelled every Namespace');
      await new Promise((r) => setTimeout(r, 500));
      proxy.stall();
      p.child.kill('SIGTERM');
      assert.deepEqual(await exited(p), { code: 0, signal: null }, p.output());
      assert.match(p.output(), /All controllers terminated/);
      assert.doesNotMatch(p.output(), /Controller shutdown timeout reached|shutdown failed/);
    } finally {
      await proxy.close();
    }
  });

  const refusals: { name: string; args: string[]; code: number; message: RegExp }[] = [
    { name: 'no API server', args: [], code: 2, message: /no API server to talk to: set --platconfig \(a kubeconfig file\) or --master/ },
    { name: 'an unknown controller', args: ['--master=https://127.0.0.1:1', '--controllers=*,-marker-z'], code: 2,
      message: /\nplat controller-manager: "marker-z" is not in the list of known controllers\n$/ },
    { name: 'a lock other than leases', args: ['--master=https://127.0.0.1:1', '--leader-elect-resource-lock=endpoints'], code: 2,
      message: /--leader-elect-resource-lock="endpoints": resourceLock value must be "leases"/ },
    // One aggregate in Validate's order: the lock, then the controllers.
    { name: 'a lock other than leases and an unknown controller', args: ['--master=https://127.0.0.1:1', '--controllers=*,-marker-z', '--leader-elect-resource-lock=endpoints'], code: 2,
      message: /\nplat controller-manager: \[--leader-elect-resource-lock="endpoints": resourceLock value must be "leases", "marker-z" is not in the list of known controllers\]\n$/ },
    { name: 'a renew deadline not below the lease duration', args: ['--master=https://127.0.0.1:1', '--leader-elect-renew-deadline=15s'], code: 2,
      message: /leaseDuration must be greater than renewDeadline \(--leader-elect-lease-duration=15s, --leader-elect-renew-deadline=15s\)/ },
    { name: 'an http master', args: ['--master=http://127.0.0.1:1'], code: 2, message: /plat talks to the API server over https only/ },
    { name: 'a missing kubeconfig', args: ['--platconfig=/nonexistent/admin.conf'], code: 1, message: /--platconfig=\/nonexistent\/admin.conf: stat \/nonexistent\/admin.conf: no such file or directory\n$/ },
    { name: 'a flag plat does not implement', args: ['--master=https://127.0.0.1:1', '--enable-leader-migration'], code: 2,
      message: /--enable-leader-migration is not supported: not implemented by plat yet/ },
    { name: 'half a serving pair', args: ['--master=https://127.0.0.1:1', '--secure-port=1', '--tls-cert-file=/x.crt'], code: 2,
      message: /\nplat controller-manager: missing filename for serving cert\n$/ },
    { name: 'a wildcard inside an always-allowed path', args: ['--master=https://127.0.0.1:1', '--secure-port=1', '--authorization-always-allow-paths=/a*b'], code: 2,
      message: /\nplat controller-manager: only trailing \* allowed in "a\*b"\n$/ },
  ];
  // Booted in this process (boot refuses before anything starts); one row as the real process too.
  for (const r of refusals) {
    it(`refuses ${r.name} at start-up`, async () => {
      const out = await bootRefusal('controller-manager', ['--secure-port=0', ...r.args], { cwd: tempDir(), configFile: testConfig('refused').PLAT_CONFIG! });
      assert.equal(out.code, r.code, out.stderr);
      assert.match(out.stderr, r.message);
    });
  }
  it(`the real process refuses ${refusals[1]!.name} at start-up`, () => {
    const r = refusals[1]!;
    const out = runPlat(['controller-manager', '--secure-port=0', ...r.args], { cwd: tempDir(), env: testConfig('refused') });
    assert.equal(out.code, r.code, out.stderr);
    assert.match(out.stderr, r.message);
  });
});

describe('a new leader issues what the killed one never saw', () => {
  let plat: RunningPlat;
  let admin: string;
  const procs: Background[] = [];
  before(async () => {
    // Only the two controller managers sign: none embedded in plat all.
    plat = await startInProcess({ args: ['--controllers='], plugins: [SlowLeaseReadsForTests] });
    admin = adminKubeconfig(plat);
  });
  after(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await plat?.stop();
  });

  it('SIGSTOP the leading signer past the lease duration: the other takes over and issues; SIGCONT, and the old one finds the Lease taken and exits 1, having issued nothing', async () => {
    // The keys are made first: made while b leads, they would hold up this process's API server
    // (and b's renewals) for as long as they take.
    const fx = fixtures();
    const names = ['paused-1', 'paused-2'];
    const bodies = names.map((name) => ({ ...baseCsr(fx, name), spec: { ...baseCsr(fx, 'x').spec, signerName: 'platform/apiserver-client' } }));
    const pki = path.join(plat.dataDir, 'pki');
    const args = ['controller-manager', '--platconfig', admin, '--secure-port=0', '--controllers=csrsigning', '--leader-elect-resource-name=paused',
      '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=250ms', '-v=2',
      `--cluster-signing-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${path.join(pki, 'ca.key')}`];
    const a = await startPlat(args, /successfully acquired lease/, { cwd: tempDir() });
    procs.push(a);
    const b = await startPlat(args, /attempting to acquire leader lease/, { cwd: tempDir() });
    procs.push(b);
    a.child.kill('SIGSTOP');
    await until(async () => /successfully acquired lease/.test(b.output()), 'b takes over from the paused leader', 100, 100);
    const lease = (await plat.admin.get('/apis/coordination.platform/v1/namespaces/plat-system/leases/paused')).json;
    assert.equal(lease.spec.holderIdentity, identityOf(b));

    // Created while a is paused: its watch holds their events for when it wakes up.
    await createApproved(plat.admin, bodies);
    const issued: Record<string, { certificate: string; resourceVersion: string }> = {};
    for (const name of names) {
      const csr = await until(async () => { const r = (await plat.admin.get(`${CSRS}/${name}`)).json; return r.status?.certificate ? r : undefined; }, `${name} issued by b`, 100, 100);
      issued[name] = { certificate: csr.status.certificate, resourceVersion: csr.metadata.resourceVersion };
    }

    a.child.kill('SIGCONT');
    assert.deepEqual(await exitedWithin(a, 15_000), { code: 1, signal: null }, a.output());
    assert.match(a.output(), /\] leaderelection lost\n/);
    assert.doesNotMatch(a.output(), /issued a certificate/, 'the old leader issued nothing after it woke up');
    for (const name of names) {
      const csr = (await plat.admin.get(`${CSRS}/${name}`)).json;
      assert.deepEqual({ certificate: csr.status.certificate, resourceVersion: csr.metadata.resourceVersion }, issued[name], `${name} was written once`);
    }
    assert.equal((await plat.admin.get('/apis/coordination.platform/v1/namespaces/plat-system/leases/paused')).json.spec.holderIdentity, identityOf(b));
    assert.equal(b.child.exitCode, null, 'the new leader goes on');
    // Its signer would otherwise answer the next test's CSRs.
    b.child.kill('SIGTERM');
    assert.deepEqual(await exited(b), { code: 0, signal: null });
  });

  it('SIGSTOP the leader past the lease duration, another takes the Lease, CSRs are approved meanwhile: woken, the old leader handles their events but sends no write (its fence closed with the renew deadline), and says so', async () => {
    // The h2 report's stale.sh: the old leader's workers got the watch events that waited during
    // the pause before its renewal found the Lease taken, and their status writes landed. Here
    // the Lease is taken by hand (a standby that signs would issue the CSRs itself), and the
    // woken leader's renewal read is held up at the API server so that its workers surely go first.
    const fx = fixtures();
    const names = ['fenced-1', 'fenced-2', 'fenced-3'];
    const bodies = names.map((name) => ({ ...baseCsr(fx, name), spec: { ...baseCsr(fx, 'x').spec, signerName: 'platform/apiserver-client' } }));
    const pki = path.join(plat.dataDir, 'pki');
    const a = await startPlat(['controller-manager', '--platconfig', admin, '--secure-port=0', '--controllers=csrsigning', '--leader-elect-resource-name=fenced',
      '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=250ms', '-v=2',
      `--cluster-signing-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${path.join(pki, 'ca.key')}`], /successfully acquired lease/, { cwd: tempDir() });
    procs.push(a);
    await until(async () => /Caches are synced for certificate-csrsigning-plat-apiserver-client/.test(a.output()), 'a watches CSRs', 100, 100);
    a.child.kill('SIGSTOP');
    const LEASES = '/apis/coordination.platform/v1/namespaces/plat-system/leases';
    await new Promise((r) => setTimeout(r, 3500)); // past the lease duration, as a standby would wait
    await takeLease(plat.admin, `${LEASES}/fenced`, 'the-new-leader');
    await createApproved(plat.admin, bodies);
    slowLeaseReads.on = true;
    try {
      a.child.kill('SIGCONT');
      assert.deepEqual(await exitedWithin(a, 15_000), { code: 1, signal: null }, a.output());
    } finally {
      slowLeaseReads.on = false;
    }
    assert.match(a.output(), /\] leaderelection lost\n/);
    assert.doesNotMatch(a.output(), /issued a certificate|cut short/, a.output());
    for (const name of names) assert.equal((await plat.admin.get(`${CSRS}/${name}`)).json.status?.certificate, undefined, `${name}: nothing written by the old leader`);
    // It did handle the events (before it learnt of the loss), and said truly that it sent nothing.
    for (const name of names) {
      assert.match(a.output(), new RegExp(`\\] sync ${name} abandoned: (not started|its write was not sent): the lease was last renewed \\S+ ago, not within the renew deadline \\(2s\\) controller="csrsigning-plat-apiserver-client"\n`));
    }
    assert.equal((await plat.admin.get(`${LEASES}/fenced`)).json.spec.holderIdentity, 'the-new-leader');
  });

  it('SIGKILL the leading signer; the other takes over and issues a CSR created after the kill', async () => {
    const pki = path.join(plat.dataDir, 'pki');
    const args = ['controller-manager', '--platconfig', admin, '--secure-port=0', '--controllers=csrsigning', ...FAST_ELECTION,
      `--cluster-signing-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${path.join(pki, 'ca.key')}`];
    const a = await startPlat(args, /successfully acquired lease/, { cwd: tempDir() });
    procs.push(a);
    const b = await startPlat(args, /attempting to acquire leader lease/, { cwd: tempDir() });
    procs.push(b);
    a.child.kill('SIGKILL');
    await exited(a);

    const fx = fixtures();
    const created = await plat.admin.post('/apis/certificates.platform/v1/certificatesigningrequests', { ...baseCsr(fx, 'after-the-kill'), spec: { ...baseCsr(fx, 'x').spec, signerName: 'platform/apiserver-client' } });
    assert.equal(created.status, 201, created.text);
    const approved = await plat.admin.put('/apis/certificates.platform/v1/certificatesigningrequests/after-the-kill/approval',
      { ...created.json, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
    assert.equal(approved.status, 200, approved.text);
    await until(async () => Boolean((await plat.admin.get('/apis/certificates.platform/v1/certificatesigningrequests/after-the-kill')).json.status?.certificate),
      'issued by the new leader', 100, 200);
    assert.match(b.output(), /successfully acquired lease/);
  });
});
