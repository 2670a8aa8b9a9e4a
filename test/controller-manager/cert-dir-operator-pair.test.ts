// The controller manager without --tls-cert-file: an operator's own pair in --cert-dir
// (plat-controller-manager.crt/.key, made by openssl) is served after a restart and never
// overwritten; a pair renamed over the files while it runs goes to the next handshake (upstream's
// ApplyTo serves them through NewDynamicServingContentFromFiles); a mismatched pair is a start-up
// error naming both files. In process against a real API server; real TLS on 127.0.0.1; waits are
// bounded, nothing is timed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { opensslServingPair, pairOnDisk, renameOperatorPair, writeOperatorPair } from '../helpers/operator-pair.js';
import { servedCertificate } from '../helpers/tls-probe.js';
import { until } from '../csrsigning/support.js';
import { startControllerManager, writeKubeconfig } from './support.js';

const PAIR = 'plat-controller-manager';

describe('controller manager: an operator\'s pair in --cert-dir', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess();
    admin = writeKubeconfig(plat, path.join(tempDir(), 'admin.conf'), 'admin');
  });
  after(() => plat?.stop());

  const start = async (certDir: string, port: number) => startControllerManager([
    '--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', String(port), '--v=2',
    '--authentication-skip-lookup', `--cert-dir=${certDir}`, '--controllers', 'namespace-controller',
  ]);

  it('is served after a restart, not overwritten, and a pair renamed over it goes to the next handshake', async () => {
    const certDir = tempDir();
    const first = await start(certDir, await freePort());
    await first.stop();
    assert.ok(first.logs.some((l) => l.includes('Generated self-signed cert (')), first.logs.join('\n'));

    const [a, b] = [opensslServingPair('operator-a.example'), opensslServingPair('operator-b.example')];
    writeOperatorPair(certDir, PAIR, a);
    const port = await freePort();
    const cm = await start(certDir, port);
    try {
      assert.deepEqual(pairOnDisk(certDir, PAIR), { cert: a.cert, key: a.key }, 'the operator\'s files are as written');
      assert.equal((await servedCertificate(port)).fingerprint256, a.fingerprint);
      const [crt, key] = [path.join(certDir, `${PAIR}.crt`), path.join(certDir, `${PAIR}.key`)];
      assert.ok(cm.logs.some((l) => l.includes(`Using serving cert/key pair (${crt}, ${key}) for CN=operator-a.example`)), cm.logs.join('\n'));
      assert.ok(!cm.logs.some((l) => l.includes('Generated self-signed cert')), cm.logs.join('\n'));

      renameOperatorPair(certDir, PAIR, b);
      await until(async () => (await servedCertificate(port)).fingerprint256 === b.fingerprint, 'the renamed pair to be served');
      assert.ok(cm.logs.some((l) => l.includes(`Loaded a new cert/key pair name="serving-cert::${crt}::${key}"`)), cm.logs.join('\n'));
    } finally { await cm.stop(); }
  });

  it('whose key does not match its certificate stops start-up naming both files, which are kept', async () => {
    const certDir = tempDir();
    const mismatched = { cert: opensslServingPair('operator.example').cert, key: opensslServingPair('other.example').key };
    writeOperatorPair(certDir, PAIR, mismatched);
    const [crt, key] = [path.join(certDir, `${PAIR}.crt`), path.join(certDir, `${PAIR}.key`)];
    await assert.rejects(start(certDir, await freePort()), (e: Error) => {
      assert.equal(e.message, `--cert-dir ${certDir}: ${crt} and ${key}: tls: private key does not match public key (a pair plat did not make is never replaced: fix both files or remove them)`);
      return true;
    });
    assert.deepEqual(pairOnDisk(certDir, PAIR), mismatched);
  });
});
