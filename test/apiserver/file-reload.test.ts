// The API server's files are re-read while it runs, as upstream's dynamiccertificates keep them:
// --tls-cert-file/--tls-private-key-file and each --tls-sni-cert-key pair are given to new
// handshakes once rewritten, --client-ca-file verifies the next request against the new bundle (a
// CA taken out stops authenticating), and a file rewritten into something unusable is logged and
// the current content kept. Real files, real TLS on 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert, makeServingCert, writeCertKeyFiles, type TestCredential } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { clientCertificateRequest, servedCertificate, statusWith } from '../helpers/tls-probe.js';
import { Logs, until } from '../csrsigning/support.js';

describe('API server: serving and client CA files changed while running', () => {
  const dir = tempDir();
  const servingCa = makeCa({ commonName: 'serving-ca' });
  const serving = [0, 1].map(() => makeServingCert(servingCa, ['localhost'], ['127.0.0.1']));
  const sni = [0, 1].map(() => makeServingCert(servingCa, ['sni.example']));
  const [caA, caB] = [makeCa({ commonName: 'client-ca-a' }), makeCa({ commonName: 'client-ca-b' })];
  const alice = makeClientCert(caA!, 'alice');
  const bob = makeClientCert(caB!, 'bob');
  const [certFile, keyFile] = writeCertKeyFiles(dir, 'serving', serving[0]!).split(',') as [string, string];
  const [sniCert, sniKey] = writeCertKeyFiles(dir, 'sni', sni[0]!).split(',') as [string, string];
  const caFile = path.join(dir, 'client-ca.crt');
  writeFileSync(caFile, caA!.certificatePem + caB!.certificatePem);
  const logs = new Logs();
  let plat: RunningPlat;
  let port: number;

  before(async () => {
    plat = await startInProcess({
      logger: logs.logger,
      args: ['--v=2', `--tls-cert-file=${certFile}`, `--tls-private-key-file=${keyFile}`, `--tls-sni-cert-key=${sniCert},${sniKey}`, `--client-ca-file=${caFile}`],
    });
    port = Number(new URL(plat.url).port);
  });
  after(() => plat.stop());

  const serves = async (cred: TestCredential, servername?: string) =>
    (await servedCertificate(port, servername)).fingerprint256 === new (await import('node:crypto')).X509Certificate(cred.certificatePem).fingerprint256;
  const authenticated = async (cred: TestCredential) => (await statusWith(port, '/api', cred)) !== 401;
  const rewrite = (crt: string, key: string, cred: TestCredential) => {
    writeFileSync(key, cred.privateKeyPem);
    writeFileSync(crt, cred.certificatePem);
  };

  it('serves a rewritten --tls-cert-file pair to new handshakes', async () => {
    assert.ok(await serves(serving[0]!), 'the first pair is served');
    const loads = () => logs.loads('Loaded a new cert/key pair', `serving-cert::${certFile}::${keyFile}`);
    assert.equal(loads(), 1, `the start-up pair is logged as loaded:\n${logs.lines.join('\n')}`);
    rewrite(certFile, keyFile, serving[1]!);
    await until(() => serves(serving[1]!), 'the new pair to be served');
    assert.ok(loads() >= 2, logs.lines.join('\n'));
  });

  it('serves a rewritten --tls-sni-cert-key pair for its name', async () => {
    assert.ok(await serves(sni[0]!, 'sni.example'));
    const loads = () => logs.loads('Loaded a new cert/key pair', `sni-serving-cert::${sniCert}::${sniKey}`);
    assert.equal(loads(), 1, `the start-up SNI pair is logged as loaded:\n${logs.lines.join('\n')}`);
    rewrite(sniCert, sniKey, sni[1]!);
    await until(() => serves(sni[1]!, 'sni.example'), 'the new SNI pair to be served');
    assert.ok(await serves(serving[1]!), 'the default pair is unchanged');
    assert.ok(loads() >= 2, logs.lines.join('\n'));
  });

  it('verifies client certificates against the rewritten --client-ca-file: a CA taken out stops authenticating', async () => {
    assert.ok(await authenticated(alice) && await authenticated(bob), 'both CAs authenticate at first');
    const loads = () => logs.loads('Loaded a new CA Bundle and Verifier', `client-ca-bundle::${caFile}`);
    assert.equal(loads(), 1, `the start-up bundle is logged as loaded:\n${logs.lines.join('\n')}`);
    const offered = await clientCertificateRequest(port);
    assert.ok(offered?.includes('CN = client-ca-a') && offered.includes('CN = client-ca-b'), `the handshake names both CAs: ${offered}`);
    writeFileSync(caFile, caA!.certificatePem);
    await until(async () => !(await authenticated(bob)), 'the removed CA to stop authenticating');
    assert.ok(await authenticated(alice), 'the CA left in the file still authenticates');
    // As upstream's DynamicServingCertificateController rebuilds ClientCAs.
    assert.match((await clientCertificateRequest(port)) ?? '', /^(?!.*client-ca-b).*CN = client-ca-a/s, 'the handshake names the CAs of the rewritten file');
    assert.ok(loads() >= 2, logs.lines.join('\n'));
  });

  it('keeps the current pair and bundle when the files are rewritten unusable, and says why', async () => {
    writeFileSync(certFile, 'not a certificate\n');
    await until(() => logs.has('key failed with : tls: failed to find any PEM data in certificate input'), 'the bad pair to be refused');
    assert.ok(await serves(serving[1]!), 'the current pair is still served');
    writeFileSync(caFile, '');
    await until(() => logs.has(`key failed with : missing content for CA bundle \\"client-ca-bundle::${caFile}\\"`), 'the empty bundle to be refused');
    assert.ok(await authenticated(alice), 'the current bundle still verifies');
    assert.ok(!(await authenticated(bob)));
  });
});
