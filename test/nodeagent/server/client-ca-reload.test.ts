// authentication.x509.clientCAFile is watched while the agent runs (upstream's "client-ca-bundle"
// content behind BuildAuthn): a CA taken out of the file stops authenticating, a CA added starts,
// and a file rewritten unusable is logged and the current bundle kept. The CA names TLS offers to
// clients stay those read at start-up, as upstream's InitializeTLS builds ClientCAs once. Real
// files, real TLS on 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert, type TestCredential } from '../../helpers/certs.js';
import { tempDir } from '../../helpers/plat.js';
import { clientCertificateRequest } from '../../helpers/tls-probe.js';
import { Logs, until } from '../../csrsigning/support.js';
import { request, selfSignedPair, serverConfig, startServer, type RunningServer } from './support.js';

describe('node agent secure port: clientCAFile changed while running', () => {
  const dir = tempDir();
  const [caA, caB, caC] = ['client-ca-a', 'client-ca-b', 'client-ca-c'].map((commonName) => makeCa({ commonName })) as [TestCredential, TestCredential, TestCredential];
  const [alice, bob, carol] = [makeClientCert(caA, 'alice'), makeClientCert(caB, 'bob'), makeClientCert(caC, 'carol')];
  const caFile = path.join(dir, 'client-ca.crt');
  const pair = selfSignedPair();
  const logs = new Logs();
  let agent: RunningServer;

  before(async () => {
    writeFileSync(caFile, caA.certificatePem + caB.certificatePem);
    agent = await startServer({
      logger: logs.logger, pair,
      config: await serverConfig({ authentication: { x509: { clientCAFile: caFile }, webhook: { enabled: false, cacheTTL: '2m0s' }, anonymous: { enabled: false } } }),
    });
  });
  after(() => agent.stop());

  const status = async (who: TestCredential) => (await request(agent.port, '/pods', { ca: pair.cert, cert: who.certificatePem, key: who.privateKeyPem })).status;

  it('verifies against the rewritten file: a CA taken out stops authenticating, one added starts', async () => {
    assert.deepEqual([await status(alice), await status(bob), await status(carol)], [200, 200, 401]);
    const loads = () => logs.loads('Loaded a new CA Bundle and Verifier', `client-ca-bundle::${caFile}`);
    assert.equal(loads(), 1, `the start-up bundle is logged as loaded:\n${logs.lines.join('\n')}`);
    writeFileSync(caFile, caA.certificatePem + caC.certificatePem);
    await until(async () => await status(carol) === 200, 'the added CA to authenticate');
    assert.equal(await status(bob), 401, 'the removed CA no longer authenticates');
    assert.equal(await status(alice), 200, 'the CA left in the file still authenticates');
    assert.ok(loads() >= 2, logs.lines.join('\n'));
  });

  it('keeps the current bundle when the file is rewritten unusable, and says why', async () => {
    writeFileSync(caFile, 'not a certificate\n');
    await until(() => logs.has('key failed with : unable to load CA bundle for') && logs.has('data does not contain any valid RSA or ECDSA certificates'), 'the bad bundle to be refused');
    assert.deepEqual([await status(alice), await status(bob), await status(carol)], [200, 401, 200]);
  });

  it('offers TLS clients the CA names read at start-up', async () => {
    const names = (await clientCertificateRequest(agent.port)) ?? '';
    assert.match(names, /client-ca-a/);
    assert.match(names, /client-ca-b/);
    assert.doesNotMatch(names, /client-ca-c/);
  });
});
