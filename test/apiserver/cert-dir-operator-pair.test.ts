// `plat apiserver` without --tls-cert-file: an operator's own pair in --cert-dir (made by openssl)
// is served after a restart and never overwritten, a pair renamed over the files while it runs is
// given to the next handshake, and a mismatched pair stops start-up naming both files, which stay
// as they were (upstream's MaybeDefaultWithSelfSignedCerts reuses any readable pair). Real
// processes, real TLS on 127.0.0.1; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { freePort, tempDir } from '../helpers/plat.js';
import { runPlatAsync, startPlat } from '../helpers/run-plat.js';
import { opensslServingPair, pairOnDisk, renameOperatorPair, writeOperatorPair } from '../helpers/operator-pair.js';
import { servedCertificate } from '../helpers/tls-probe.js';
import { until } from '../csrsigning/support.js';

const args = (dir: string, port: number) => ['apiserver', '--data-dir', path.join(dir, 'data'), '--cert-dir', path.join(dir, 'certs'),
  '--bind-address', '127.0.0.1', '--secure-port', String(port), '--v=2'];

describe('plat apiserver: an operator\'s pair in --cert-dir', () => {
  it('is served after a restart, not overwritten, and a pair renamed over it goes to the next handshake', async () => {
    const dir = tempDir();
    const certs = path.join(dir, 'certs');
    const first = await startPlat(args(dir, await freePort()), /Serving securely on/);
    await first.stop();
    assert.ok(existsSync(path.join(certs, 'apiserver.crt')), 'plat made its pair on the first start');

    const [a, b] = [opensslServingPair('operator-a.example'), opensslServingPair('operator-b.example')];
    writeOperatorPair(certs, 'apiserver', a);
    const port = await freePort();
    const second = await startPlat(args(dir, port), /Serving securely on/);
    try {
      assert.deepEqual(pairOnDisk(certs, 'apiserver'), { cert: a.cert, key: a.key }, 'the operator\'s files are as written');
      assert.equal((await servedCertificate(port)).fingerprint256, a.fingerprint);
      const crt = path.join(certs, 'apiserver.crt');
      const key = path.join(certs, 'apiserver.key');
      assert.ok(second.output().includes(`Using serving cert/key pair (${crt}, ${key}) for CN=operator-a.example`), second.output());
      assert.ok(!second.output().includes('Generated self-signed cert'), second.output());

      renameOperatorPair(certs, 'apiserver', b);
      await until(async () => (await servedCertificate(port)).fingerprint256 === b.fingerprint, 'the renamed pair to be served');
      assert.deepEqual(pairOnDisk(certs, 'apiserver'), { cert: b.cert, key: b.key });
    } finally { await second.stop(); }
  });

  it('whose key does not match its certificate stops start-up naming both files, which are kept', async () => {
    const dir = tempDir();
    const certs = path.join(dir, 'certs');
    mkdirSync(certs);
    const mismatched = { cert: opensslServingPair('operator.example').cert, key: opensslServingPair('other.example').key };
    writeOperatorPair(certs, 'apiserver', mismatched);
    const run = await runPlatAsync(args(dir, await freePort()));
    assert.equal(run.code, 1, run.stderr);
    const crt = path.join(certs, 'apiserver.crt');
    const key = path.join(certs, 'apiserver.key');
    assert.ok(run.stderr.includes(`${crt} and ${key}: tls: private key does not match public key`), run.stderr);
    assert.deepEqual(pairOnDisk(certs, 'apiserver'), mismatched);
  });
});
