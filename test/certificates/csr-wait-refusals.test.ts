// core/certificates/csr-wait.ts and a list refused with 403 (an in-process `plat all`, a user
// allowed to create and get CSRs but not to list or watch them): 'fail' (the operator commands)
// ends the wait with the refusal at once; 'retry' (the node agent, upstream's WaitForCertificate,
// whose informer retries until the deadline) keeps trying every second and finishes once the user
// may list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitForIssued } from '../../core/certificates/csr-wait.js';
import { ApiError, RestClient } from '../../core/client/rest-client.js';
import { platCa } from '../controller-manager/support.js';
import { makeClientCert } from '../helpers/certs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { b64, baseCsr, fixtures } from './fixtures.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const RBAC = '/apis/rbac.authorization.platform/v1';
const USER = 'csr-waiter';

describe('waiting for a CSR whose list is refused', () => {
  let plat: RunningPlat;
  let client: RestClient;
  const fx = fixtures();

  const grant = async (name: string, verbs: string[]) => {
    const role = { apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name }, rules: [{ apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests'], verbs }] };
    assert.equal((await plat.admin.post(`${RBAC}/clusterroles`, role)).status, 201);
    const binding = {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name }, subjects: [{ apiGroup: 'rbac.authorization.platform', kind: 'User', name: USER }],
    };
    assert.equal((await plat.admin.post(`${RBAC}/clusterrolebindings`, binding)).status, 201);
  };
  const create = async (name: string): Promise<string> => {
    const r = await plat.admin.post(CSRS, baseCsr(fx, name));
    assert.equal(r.status, 201, r.text);
    return r.json.metadata.uid;
  };
  const issue = async (name: string) => {
    const obj = (await plat.admin.get(`${CSRS}/${name}`)).json;
    obj.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/${name}/approval`, obj)).status, 200);
    const approved = (await plat.admin.get(`${CSRS}/${name}`)).json;
    approved.status.certificate = b64(fx.certPem);
    const r = await plat.admin.put(`${CSRS}/${name}/status`, approved);
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=RBAC'] });
    await grant('test:csr-get', ['get', 'create']);
    const cred = makeClientCert(platCa(plat), USER);
    client = new RestClient({
      server: new URL(plat.url), ca: readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt')), clientCert: cred.certificatePem, clientKey: cred.privateKeyPem,
    }, { userAgent: 'csr-wait-test', qps: 0 });
  });
  after(async () => { client?.close(); await plat?.stop(); });

  it("'fail' ends the wait with the 403 at once", async () => {
    const uid = await create('refused-fail');
    await assert.rejects(waitForIssued(client, 'refused-fail', { uid, timeoutMs: 60_000, refusals: 'fail' }),
      (e: unknown) => e instanceof ApiError && e.code === 403 && /cannot list resource "certificatesigningrequests"/.test(e.message));
  });

  it("'retry' retries the 403 every second until the user may list, then sees the certificate", async () => {
    const uid = await create('refused-retry');
    const retried: { error: unknown; during: string }[] = [];
    const done = waitForIssued(client, 'refused-retry', { uid, timeoutMs: 60_000, refusals: 'retry', onRetry: (error, during) => retried.push({ error, during }) });
    let failed: unknown;
    done.catch((e: unknown) => { failed = e; });
    for (let i = 0; i < 300 && retried.length < 2 && failed === undefined; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(failed, undefined, 'the wait is still on');
    assert.ok(retried.length >= 2, `retried ${retried.length} times`);
    for (const r of retried) {
      assert.equal(r.during, 'list');
      assert.ok(r.error instanceof ApiError && r.error.code === 403, String(r.error));
    }
    await grant('test:csr-list', ['list', 'watch']);
    await issue('refused-retry');
    const csr = await done;
    assert.equal(csr.metadata.uid, uid);
    assert.ok(csr.status?.certificate);
  });
});
