// --requestheader-client-ca-file is watched while the API server runs (upstream's
// "request-header::<file>" content): a front proxy whose CA is put into the file is believed from
// then on, one whose CA is taken out is refused, and a file rewritten unusable is logged and the
// current bundle kept. Real files, real TLS on 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert, type TestCredential } from '../helpers/certs.js';
import { Client, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { Logs, until } from '../csrsigning/support.js';

const REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';

describe('RequestHeaderAuthenticator: --requestheader-client-ca-file changed while running', () => {
  const dir = tempDir();
  const [caA, caB] = [makeCa({ commonName: 'front-proxy-ca-a' }), makeCa({ commonName: 'front-proxy-ca-b' })] as [TestCredential, TestCredential];
  const [proxyA, proxyB] = [makeClientCert(caA, 'front-proxy'), makeClientCert(caB, 'front-proxy')];
  const caFile = path.join(dir, 'front-proxy-ca.crt');
  const logs = new Logs();
  let plat: RunningPlat;

  before(async () => {
    writeFileSync(caFile, caA.certificatePem);
    plat = await startInProcess({
      logger: logs.logger,
      args: ['--v=2', `--requestheader-client-ca-file=${caFile}`, '--requestheader-username-headers=X-Remote-User', '--requestheader-allowed-names=front-proxy'],
    });
  });
  after(() => plat.stop());

  /** The user the API server sees for `proxy` asserting alice, or the status when there is none. */
  const seenAs = async (proxy: TestCredential): Promise<string | number> => {
    const client = new Client(plat.url, { ca: plat.admin.creds.ca, cert: proxy.certificatePem, key: proxy.privateKeyPem });
    const r = await client.post(REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' }, { 'x-remote-user': 'alice' });
    return r.status === 201 ? r.json.status.userInfo.username as string : r.status;
  };

  it('believes a proxy of the CA put into the file, refuses one of the CA taken out', async () => {
    assert.deepEqual([await seenAs(proxyA), await seenAs(proxyB)], ['alice', 401]);
    const loads = () => logs.loads('Loaded a new CA Bundle and Verifier', `request-header::${caFile}`);
    assert.equal(loads(), 1, `the start-up bundle is logged as loaded:\n${logs.lines.join('\n')}`);
    writeFileSync(caFile, caB.certificatePem);
    await until(async () => await seenAs(proxyB) === 'alice', 'the new CA\'s proxy to be believed');
    assert.equal(await seenAs(proxyA), 401, 'the removed CA\'s proxy is refused');
    assert.ok(loads() >= 2, logs.lines.join('\n'));
  });

  it('keeps the current bundle when the file is rewritten unusable, and says why', async () => {
    writeFileSync(caFile, '');
    await until(() => logs.has(`key failed with : missing content for CA bundle \\"request-header::${caFile}\\"`), 'the empty bundle to be refused');
    assert.deepEqual([await seenAs(proxyA), await seenAs(proxyB)], [401, 'alice']);
  });
});
