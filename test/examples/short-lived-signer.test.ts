// The third-party signer of examples/short-lived-signer, loaded the way a user loads it: the
// controller-manager host started in that directory finds plat.config.mjs through cosmiconfig and
// applies the plugin, which taps hooks.sign for example.com/short-lived. The csrsigning
// controller then hands it that signer's approved CSRs, the cluster CA keeps the well-known
// signers, and a CSR for a signer nobody serves is left alone.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { boot } from '../../core/boot.js';
import { createLogger } from '../../core/log.js';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import {
  failedCondition, getCsr, makeCsr, startSigning, submitApproved, waitForCertificate, waitForCsr, writeCaFiles, type RunningSigning,
} from '../csrsigning/support.js';
import { makeCa } from '../helpers/certs.js';
import { opensslVerify } from '../helpers/openssl.js';
import { repoRoot, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const SIGNER = 'example.com/short-lived';
const MIN = 60_000;

describe('examples/short-lived-signer loaded from its cosmiconfig file', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  const caDir = path.join(tempDir(), 'short-lived-ca');
  const clusterCa = makeCa({ commonName: 'cluster-ca' });
  let exampleCaPem: string;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    const files = writeCaFiles(tempDir(), clusterCa);
    process.env['SHORT_LIVED_SIGNER_CA_DIR'] = caDir;
    signing = await startSigning(plat, ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile],
      { cwd: path.join(repoRoot, 'examples/short-lived-signer') });
    exampleCaPem = readFileSync(path.join(caDir, 'ca.crt'), 'utf8');
  });
  after(async () => {
    delete process.env['SHORT_LIVED_SIGNER_CA_DIR'];
    await signing?.stop();
    await plat?.stop();
  });

  it('made its CA in the configured directory, the key private', () => {
    assert.equal(statSync(path.join(caDir, 'ca.key')).mode & 0o777, 0o600);
    assert.match(exampleCaPem, /^-----BEGIN CERTIFICATE-----/);
    assert.ok(signing.logs.has('ShortLivedSigner] made a CA'));
  });

  it('issues at most an hour, from its own CA', async () => {
    const cases = [
      { name: 'sl-default', expirationSeconds: undefined, lifetime: 60 * MIN },
      { name: 'sl-600', expirationSeconds: 600, lifetime: 10 * MIN },
      { name: 'sl-2h', expirationSeconds: 7200, lifetime: 60 * MIN },
    ];
    await Promise.all(cases.map((c) => submitApproved(plat.admin, c.name, makeCsr({ cn: c.name }), SIGNER, ['digital signature', 'client auth'], c.expirationSeconds)));
    for (const c of cases) {
      const { pem, x509 } = await waitForCertificate(plat.admin, c.name);
      assert.equal(opensslVerify(exampleCaPem, pem, { purpose: 'sslclient' }).status, 0, `${c.name}: signed by the example's CA`);
      assert.notEqual(opensslVerify(clusterCa.certificatePem, pem).status, 0, `${c.name}: not by the cluster CA`);
      // One minute of backdating, then the lifetime.
      assert.equal(Date.parse(x509.validTo) - Date.parse(x509.validFrom), c.lifetime + MIN, c.name);
    }
  });

  it('fails a request for a usage it does not issue', async () => {
    await submitApproved(plat.admin, 'sl-code-signing', makeCsr({ cn: 'sl-code-signing' }), SIGNER, ['digital signature', 'code signing']);
    const obj = await waitForCsr(plat.admin, 'sl-code-signing', (o) => failedCondition(o) !== undefined, 'a Failed condition');
    assert.equal(failedCondition(obj).reason, 'SignerValidationFailure');
    assert.equal(failedCondition(obj).message, `usage "code signing" is not issued by ${SIGNER}`);
  });

  it('leaves the well-known signers to the cluster CA and other unknown signers to nobody', async () => {
    await submitApproved(plat.admin, 'other-unknown', makeCsr({ cn: 'other' }), 'example.com/unknown', ['digital signature', 'client auth']);
    await submitApproved(plat.admin, 'cluster-client', makeCsr({ cn: 'cluster-client' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    await submitApproved(plat.admin, 'sl-sentinel', makeCsr({ cn: 'sl-sentinel' }), SIGNER, ['client auth']);
    const cluster = await waitForCertificate(plat.admin, 'cluster-client');
    assert.equal(opensslVerify(clusterCa.certificatePem, cluster.pem).status, 0);
    await waitForCertificate(plat.admin, 'sl-sentinel');

    assert.equal(signing.host.hooks.sign.get('example.com/unknown'), undefined, 'nobody taps example.com/unknown');
    const other = await getCsr(plat.admin, 'other-unknown');
    assert.equal(other.status.certificate, undefined);
    assert.deepEqual(other.status.conditions.map((c: any) => c.type), ['Approved']);
  });
});

describe('examples/short-lived-signer with a relative caDir', () => {
  it('makes its CA beside the config file, not in the directory plat started in', async () => {
    const configDir = tempDir();
    const startedIn = tempDir();
    const plugin = path.join(repoRoot, 'examples/short-lived-signer/short-lived-signer-plugin.mjs');
    writeFileSync(path.join(configDir, 'plat.config.mjs'), `export default { plugins: [[${JSON.stringify(plugin)}, { caDir: 'ca' }]] };\n`);
    const { host } = await boot({
      profile: { role: 'controller-manager', description: 'the example alone', plugins: [] },
      argv: [], cwd: startedIn, configFile: path.join(configDir, 'plat.config.mjs'), logger: createLogger({ write: () => {} }), version: '0.0.0-test',
    });
    await host.hooks.shutdown.promise();
    assert.ok(existsSync(path.join(configDir, 'ca', 'ca.crt')), 'the CA beside the config file');
    assert.ok(!existsSync(path.join(startedIn, 'ca')), 'nothing where plat started');
  });
});
