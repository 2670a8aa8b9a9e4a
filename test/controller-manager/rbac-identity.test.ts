// The controller manager as an operator runs it under RBAC: its own client certificate for
// system:kube-controller-manager (no system:masters), delegated authentication and authorization
// through the same kubeconfig, leader election, and --use-service-account-credentials. The
// bootstrap policy alone must let it start (the endpoint's ConfigMap lookup), take the Lease,
// run its informers and sign as the controllers' service account.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { makeClientCert } from '../helpers/certs.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { platCa, startControllerManager, until, writeKubeconfig, type RunningControllerManager } from './support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';

describe('controller manager as system:kube-controller-manager under RBAC', () => {
  const fx = fixtures();
  let plat: RunningPlat;
  let cm: RunningControllerManager;

  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--controllers='] });
    const pki = path.join(plat.dataDir, 'pki');
    const kubeconfig = writeKubeconfig(plat, path.join(tempDir(), 'cm.conf'), makeClientCert(platCa(plat), 'system:kube-controller-manager'));
    cm = await startControllerManager(['--platconfig', kubeconfig, `--secure-port=${await freePort()}`, '--bind-address=127.0.0.1',
      '--authentication-kubeconfig', kubeconfig, '--authorization-kubeconfig', kubeconfig, '--client-ca-file', path.join(pki, 'ca.crt'),
      '--use-service-account-credentials',
      '--cluster-signing-cert-file', path.join(pki, 'ca.crt'), '--cluster-signing-key-file', path.join(pki, 'ca.key')]);
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  it('takes the Lease and signs an approved CSR, never refused', async () => {
    await until(async () => (await plat.admin.get(LEASE)).json?.spec?.holderIdentity, 'the Lease held');
    const csr = baseCsr(fx, 'operator-setup');
    csr.spec.signerName = 'platform/apiserver-client';
    assert.equal((await plat.admin.post(CSRS, csr)).status, 201);
    const created = (await plat.admin.get(`${CSRS}/operator-setup`)).json;
    created.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'ByTest', message: 'approved by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/operator-setup/approval`, created)).status, 200);
    await until(async () => (await plat.admin.get(`${CSRS}/operator-setup`)).json?.status?.certificate, 'the certificate');
    assert.ok(!cm.logs.some((l) => l.includes('is forbidden')), cm.logs.filter((l) => l.includes('is forbidden')).join('\n'));
  });

  it('fills the aggregated roles as the aggregation controller\'s service account', async () => {
    const admin = await until(async () => {
      const r = (await plat.admin.get('/apis/rbac.authorization.platform/v1/clusterroles/admin')).json;
      return r?.rules?.length ? r : undefined;
    }, 'admin filled');
    // Its writes need escalate (it holds none of the rules it writes): the bootstrap policy grants it.
    assert.ok(admin.metadata.managedFields.some((m: any) => m.manager === 'clusterrole-aggregation-controller'), JSON.stringify(admin.metadata.managedFields));
    assert.ok(!cm.logs.some((l) => l.includes('is forbidden')), cm.logs.filter((l) => l.includes('is forbidden')).join('\n'));
  });

  it('serves its health endpoint to anonymous clients', async () => {
    const r = await cm.anonymous.get('/healthz');
    assert.equal(r.status, 200, r.text);
  });
});
