// kubectl's -n (a global flag) and get's -A are taken and ignored on CertificateSigningRequests,
// which are cluster-scoped: `kubectl get csr -n kube-system` lists them all, and so does plat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('plat csr: -n and -A', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const csr = (...args: string[]) => runPlatAsync(['csr', ...args, '--kubeconfig', plat.kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  before(async () => {
    plat = await startInProcess();
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'ns-ignored'))).status, 201);
  });
  after(async () => { await plat?.stop(); });

  it('are accepted and change nothing', async () => {
    const want = `certificatesigningrequest.certificates.platform/ns-ignored\n`;
    const runs = await Promise.all([
      csr('list', '-o', 'name', '-n', 'kube-system'), csr('list', '-o', 'name', '-A'), csr('get', 'ns-ignored', '-o', 'name', '--namespace=x', '--all-namespaces'),
      csr('approve', 'ns-ignored', '-n', 'x'),
    ]);
    for (const r of runs.slice(0, 3)) assert.deepEqual([r.code, r.stderr, r.stdout], [0, '', want]);
    assert.deepEqual([runs[3]!.code, runs[3]!.stderr], [0, '']);
  });
});
