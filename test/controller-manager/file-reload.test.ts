// The controller manager's endpoint re-reads its files while it runs, as upstream's
// dynamiccertificates keep them: a rewritten --tls-cert-file pair is served to new handshakes, a
// rewritten --client-ca-file verifies the next request (a CA taken out stops authenticating: 401),
// and a file rewritten unusable is logged with the current content kept. Real files, real TLS on
// 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert, makeServingCert, writeCertKeyFiles, type TestCredential } from '../helpers/certs.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { servedCertificate, statusWith } from '../helpers/tls-probe.js';
import { startControllerManager, writeKubeconfig, type RunningControllerManager } from './support.js';
import { until } from '../csrsigning/support.js';
import { goQuote } from '../../core/go-quote.js';

describe('controller manager endpoint: files changed while running', () => {
  const dir = tempDir();
  const servingCa = makeCa({ commonName: 'serving-ca' });
  const serving = [0, 1].map(() => makeServingCert(servingCa, ['localhost'], ['127.0.0.1']));
  const [caA, caB] = [makeCa({ commonName: 'client-ca-a' }), makeCa({ commonName: 'client-ca-b' })];
  const alice = makeClientCert(caA!, 'alice');
  const bob = makeClientCert(caB!, 'bob');
  const [certFile, keyFile] = writeCertKeyFiles(dir, 'serving', serving[0]!).split(',') as [string, string];
  const caFile = path.join(dir, 'client-ca.crt');
  writeFileSync(caFile, caA!.certificatePem + caB!.certificatePem);
  let plat: RunningPlat;
  let cm: RunningControllerManager;
  let port: number;

  before(async () => {
    plat = await startInProcess();
    const admin = writeKubeconfig(plat, path.join(dir, 'admin.conf'), 'admin');
    cm = await startControllerManager([
      '--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()), '--v=2',
      '--authentication-skip-lookup', `--cert-dir=${dir}`, `--tls-cert-file=${certFile}`, `--tls-private-key-file=${keyFile}`, `--client-ca-file=${caFile}`,
    ]);
    port = Number(new URL(cm.url).port);
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  const logged = (text: string) => cm.logs.some((l) => l.includes(text));
  const loads = (message: string, name: string) => cm.logs.filter((l) => l.endsWith(`] ${message} name=${goQuote(name)}`)).length;
  const serves = async (cred: TestCredential) => (await servedCertificate(port)).fingerprint256 === new X509Certificate(cred.certificatePem).fingerprint256;
  // No authorizer: an authenticated caller is forbidden (403), a refused certificate is 401.
  const authenticated = async (cred: TestCredential) => (await statusWith(port, '/metrics', cred)) !== 401;

  it('serves a rewritten --tls-cert-file pair to new handshakes', async () => {
    assert.ok(await serves(serving[0]!));
    const pairLoads = () => loads('Loaded a new cert/key pair', `serving-cert::${certFile}::${keyFile}`);
    assert.equal(pairLoads(), 1, `the start-up pair is logged as loaded:\n${cm.logs.join('\n')}`);
    writeFileSync(keyFile, serving[1]!.privateKeyPem);
    writeFileSync(certFile, serving[1]!.certificatePem);
    await until(() => serves(serving[1]!), 'the new pair to be served');
    assert.ok(pairLoads() >= 2, cm.logs.join('\n'));
  });

  it('verifies client certificates against the rewritten --client-ca-file: a CA taken out stops authenticating', async () => {
    assert.ok(await authenticated(alice) && await authenticated(bob), 'both CAs authenticate at first');
    const bundleLoads = () => loads('Loaded a new CA Bundle and Verifier', `client-ca-bundle::${caFile}`);
    assert.equal(bundleLoads(), 1, `the start-up bundle is logged as loaded:\n${cm.logs.join('\n')}`);
    writeFileSync(caFile, caA!.certificatePem);
    await until(async () => !(await authenticated(bob)), 'the removed CA to stop authenticating');
    assert.ok(await authenticated(alice));
    assert.ok(bundleLoads() >= 2, cm.logs.join('\n'));
  });

  it('keeps the current pair and bundle when the files are rewritten unusable', async () => {
    writeFileSync(keyFile, makeServingCert(servingCa, ['other']).privateKeyPem);
    await until(() => logged('key failed with : tls: private key does not match public key'), 'the mismatched pair to be refused');
    assert.ok(await serves(serving[1]!));
    writeFileSync(caFile, 'no certificates here\n');
    await until(() => logged(`unable to load CA bundle for \\"client-ca-bundle::${caFile}\\"`), 'the bad bundle to be refused');
    assert.ok(await authenticated(alice));
    assert.ok(!(await authenticated(bob)));
  });
});
