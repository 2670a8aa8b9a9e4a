// `plat all --leader-elect` as a real process: a Lease taken away over HTTPS stops its controllers
// only. The API server goes on serving, the election campaigns again, and once the Lease is free
// the controllers start afresh (new informers and queues) and issue what was approved meanwhile
// and after. Upstream's kube-controller-manager exits on a lost Lease; kube-apiserver never does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { repoRoot, startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { until } from './support.js';

const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const FAST_ELECTION = ['--leader-elect-lease-duration=2s', '--leader-elect-renew-deadline=1500ms', '--leader-elect-retry-period=500ms'];
const microNow = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Writes the Lease's holder (and duration) as another candidate would; the leader renews beside us, so a conflict is read again. */
async function writeHolder(admin: RunningPlat['admin'], holder: string, durationS: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = (await admin.get(LEASE)).json;
    const put = await admin.put(LEASE, { ...current, spec: { ...current.spec, holderIdentity: holder, renewTime: microNow(), leaseDurationSeconds: durationS } });
    if (put.status === 200) return;
    assert.equal(put.status, 409, put.text);
  }
  assert.fail('the Lease could not be written between two renewals');
}

describe('plat all --leader-elect', () => {
  let plat: (RunningPlat & { child: import('node:child_process').ChildProcess; output: () => string }) | undefined;
  let stuck: typeof plat;
  after(async () => { await plat?.stop(); await stuck?.stop(); });

  it('a controller that outlives --controller-shutdown-timeout after the loss is named, and waited for before campaigning again; the API server serves on', async () => {
    const config = path.join(tempDir(), 'plat.config.json');
    writeFileSync(config, JSON.stringify({ plugins: [[path.join(repoRoot, 'dist/test/controller-manager/fixtures/test-controllers.js'), { id: 'all' }]] }));
    stuck = await startProcess({ args: ['--leader-elect', ...FAST_ELECTION, '--controllers=stuck', '--controller-shutdown-timeout=1s'], env: { PLAT_CONFIG: config } });
    await until(async () => /successfully acquired lease plat-system\/plat-controller-manager/.test(stuck!.output()), 'plat all leads', 100, 100);
    await writeHolder(stuck.admin, 'intruder', 60);
    await until(async () => /Controller shutdown timeout reached timeout="1s" runningControllers=\["stuck"\]/.test(stuck!.output()), 'the stuck controller is named', 100, 100);
    assert.doesNotMatch(stuck.output(), /campaigning again|shutting down/);
    assert.equal(stuck.child.exitCode, null);
    assert.equal((await stuck.admin.get('/readyz')).status, 200);
  });

  it('a lost Lease stops the controllers only: the API server serves on, the Lease is won again, and the new controllers issue', async () => {
    const fx = fixtures();
    const csr = (name: string) => ({ ...baseCsr(fx, name), spec: { ...baseCsr(fx, 'x').spec, signerName: 'platform/apiserver-client' } });
    const createApproved = async (name: string) => {
      const created = await plat!.admin.post(CSRS, csr(name));
      assert.equal(created.status, 201, created.text);
      const approved = await plat!.admin.put(`${CSRS}/${name}/approval`, { ...created.json, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
      assert.equal(approved.status, 200, approved.text);
    };
    const issued = async (name: string) => Boolean((await plat!.admin.get(`${CSRS}/${name}`)).json.status?.certificate);
    const count = (re: RegExp) => plat!.output().match(new RegExp(re, 'g'))?.length ?? 0;

    plat = await startProcess({ args: ['--leader-elect', ...FAST_ELECTION, '--controller-shutdown-timeout=5s', '-v=2'] });
    await until(async () => /successfully acquired lease plat-system\/plat-controller-manager/.test(plat!.output()), 'plat all leads', 100, 100);
    await createApproved('before-the-loss');
    await until(() => issued('before-the-loss'), 'issued while leading', 100, 100);

    // An intruder takes the Lease for a minute.
    await writeHolder(plat.admin, 'intruder', 60);
    await until(async () => /controllers stopped after losing the Lease; campaigning again/.test(plat!.output()), 'the controllers stop', 100, 100);
    const out = plat.output();
    assert.match(out, /E\d{4} [\d:.]+ plat\/controller-manager\] leaderelection lost\n/);
    assert.match(out, /All controllers terminated/);
    assert.doesNotMatch(out, /shutting down/);
    assert.equal(plat.child.exitCode, null, 'the process goes on');
    // The API server answers: reads, writes, and health.
    assert.equal((await plat.admin.get('/readyz')).status, 200);
    assert.equal((await plat.admin.get(LEASE)).json.spec.holderIdentity, 'intruder');
    await createApproved('while-standing-by');

    // The intruder lets go (upstream's release record): plat all leads again, its controllers built anew.
    await writeHolder(plat.admin, '', 1);
    await until(async () => count(/successfully acquired lease plat-system\/plat-controller-manager/) === 2, 'plat all leads again', 100, 100);
    // The controllers start after the Lease is won (each after its jittered start interval).
    await until(async () => count(/Started controller controller="certificatesigningrequest-signing-controller"/) >= 2, 'the controllers start again', 100, 100);
    assert.equal(count(/Started controller controller="certificatesigningrequest-signing-controller"/), 2, "a second signing controller, started afresh");
    await until(() => issued('while-standing-by'), 'what was approved meanwhile is issued', 100, 100);
    await createApproved('after-the-return');
    await until(() => issued('after-the-return'), 'issued after leading again', 100, 100);
    assert.equal(plat.child.exitCode, null);
  });
});
