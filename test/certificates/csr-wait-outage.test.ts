// core/certificates/csr-wait.ts while the API server is gone (a restart): once the first list
// succeeded the wait is an informer's, as upstream's WaitForCertificate (UntilWithSync): a watch
// that cannot be opened (connection refused) is tried again from the same version after the
// reflector's backoff, 0.8 s doubling (jittered up to twice), reported as such, not as a failure
// every second; when the server is back the certificate is seen. The delays are checked as the
// values the wait chose, never by the clock.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { waitForIssued } from '../../core/certificates/csr-wait.js';
import { RestClient } from '../../core/client/rest-client.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { b64, baseCsr, fixtures } from './fixtures.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('waiting for a CSR while the API server restarts', () => {
  const fx = fixtures();
  const dataDir = tempDir();
  let plat: RunningPlat | undefined;
  after(async () => { await plat?.stop(); });

  it('backs off on the refused watch as the reflector does, then sees the certificate', async () => {
    // A short --request-timeout: the wait's open watch holds the drain at stop until it.
    const args = ['--request-timeout=1s'];
    plat = await startInProcess({ dataDir, args });
    const port = new URL(plat.url).port;
    const r = await plat.admin.post(CSRS, baseCsr(fx, 'outage'));
    assert.equal(r.status, 201, r.text);
    const client = new RestClient({ server: new URL(plat.url), ca: readFileSync(path.join(dataDir, 'pki', 'ca.crt')), clientCert: plat.admin.creds.cert!, clientKey: plat.admin.creds.key! },
      { userAgent: 'csr-wait-outage-test', qps: 0 });
    const backoffs: { error: unknown; retryInMs: number }[] = [];
    const retries: { error: unknown; during: string }[] = [];
    const done = waitForIssued(client, 'outage', {
      uid: r.json.metadata.uid, timeoutMs: 120_000, refusals: 'retry',
      onBackoff: (error, retryInMs) => backoffs.push({ error, retryInMs }), onRetry: (error, during) => retries.push({ error, during }),
    });
    let failed: unknown;
    done.catch((e: unknown) => { failed = e; });
    await new Promise((res) => setTimeout(res, 300));

    await plat.stop();
    plat = undefined;
    for (let i = 0; i < 300 && backoffs.length < 3 && failed === undefined; i++) await new Promise((res) => setTimeout(res, 50));
    assert.equal(failed, undefined, 'the wait is still on');
    assert.ok(backoffs.length >= 3, `backed off ${backoffs.length} times`);
    for (const b of backoffs) assert.equal((b.error as NodeJS.ErrnoException).code, 'ECONNREFUSED');
    const [a, b, c] = backoffs.map((x) => x.retryInMs) as [number, number, number];
    assert.ok(a >= 800 && a <= 1600 && b >= 1600 && b <= 3200 && c >= 3200 && c <= 6400, `0.8 s doubling, jittered: ${a}, ${b}, ${c}`);
    assert.deepEqual(retries.map((x) => (x.error as NodeJS.ErrnoException).code).filter((code) => code === 'ECONNREFUSED'), [], 'a refused connection is no failure');

    plat = await startInProcess({ dataDir, args: [...args, '--secure-port', port] });
    const obj = (await plat.admin.get(`${CSRS}/outage`)).json;
    obj.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/outage/approval`, obj)).status, 200);
    const approved = (await plat.admin.get(`${CSRS}/outage`)).json;
    approved.status.certificate = b64(fx.certPem);
    assert.equal((await plat.admin.put(`${CSRS}/outage/status`, approved)).status, 200);
    const csr = await done;
    assert.equal(csr.metadata.name, 'outage');
    client.close();
  });
});
