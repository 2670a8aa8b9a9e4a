// A `plat controller-manager` process through a crash and restart of its API server (same data
// dir and port): its informers find the watch broken, back off while connections are refused
// (client-go's reflector: "watch of ... returned ... - backing off") and watch again once the
// server is back; the leader, its renew deadline longer than the outage, keeps its Lease (same
// holder, acquire time and transitions), and signs a CSR created after the restart.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { freePort, startProcess, tempDir } from '../helpers/plat.js';
import { startPlat, type Background } from '../helpers/run-plat.js';
import { adminKubeconfig, until } from './support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';

describe('the API server restarts under a running controller manager', () => {
  const stops: (() => Promise<void> | void)[] = [];
  after(async () => { for (const stop of stops.reverse()) await stop(); });

  it('re-watches after the outage, keeps the Lease and issues what was asked after the restart', async () => {
    // Made first: openssl runs synchronously in this process.
    const fx = fixtures();
    const csr = (name: string) => ({ ...baseCsr(fx, name), spec: { ...baseCsr(fx, 'x').spec, signerName: 'platform/apiserver-client' } });
    const bodies = { before: csr('before-restart'), after: csr('after-restart') };

    const dataDir = tempDir();
    const port = await freePort();
    // No controllers of its own: only the controller manager signs.
    const serverArgs = { dataDir, args: ['--controllers=', '--secure-port', String(port)] };
    let api = await startProcess(serverArgs);
    stops.push(() => api.stop());
    const pki = path.join(dataDir, 'pki');
    const cm: Background = await startPlat(['controller-manager', '--platconfig', adminKubeconfig(api), '--secure-port=0', '--controllers=csrsigning',
      '--leader-elect-lease-duration=30s', '--leader-elect-renew-deadline=20s', '--leader-elect-retry-period=250ms', '-v=4',
      `--cluster-signing-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${path.join(pki, 'ca.key')}`],
    /successfully acquired lease/, { cwd: tempDir() });
    stops.push(() => { if (cm.child.exitCode === null && cm.child.signalCode === null) cm.child.kill('SIGKILL'); });

    const issue = async (body: { metadata: { name: string } }) => {
      const name = body.metadata.name;
      const created = await api.admin.post(CSRS, body);
      assert.equal(created.status, 201, created.text);
      const approved = await api.admin.put(`${CSRS}/${name}/approval`, { ...created.json, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
      assert.equal(approved.status, 200, approved.text);
      await until(async () => Boolean((await api.admin.get(`${CSRS}/${name}`)).json.status?.certificate), `${name} issued`, 150, 100);
    };
    await issue(bodies.before);
    const held = (await api.admin.get(LEASE)).json.spec;

    api.child.kill('SIGKILL');
    await new Promise((resolve) => api.child.once('exit', resolve));
    const mark = cm.output().length;
    api = await startProcess(serverArgs);

    await issue(bodies.after);
    const since = cm.output().slice(mark);
    assert.equal(cm.child.exitCode, null, cm.output());
    const kept = (await api.admin.get(LEASE)).json.spec;
    assert.deepEqual({ holder: kept.holderIdentity, acquired: kept.acquireTime, transitions: kept.leaseTransitions },
      { holder: held.holderIdentity, acquired: held.acquireTime, transitions: held.leaseTransitions }, 'the leader kept its Lease');
    assert.ok(kept.renewTime > held.renewTime, 'and renews it again');
    // The reflector's V(4) line for a watch that could not be opened (isWatchErrorRetriable).
    assert.match(cm.output(), new RegExp(`core/controller/shared-informers\\.ts: watch of \\*v1\\.CertificateSigningRequest returned Get "https://127\\.0\\.0\\.1:${port}/apis/certificates\\.platform/v1/certificatesigningrequests\\?[^"]*watch=true": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused - backing off`));
    assert.doesNotMatch(since, /leaderelection lost|failed to list/);
  });
});
