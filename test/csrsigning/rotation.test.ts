// CA rotation on disk: new CA files (replaced by rename, as tools that write atomically do) are
// picked up without a restart; a pair that does not fit together is logged and not applied, and
// the previous CA keeps signing; a certificate that is not a CA is applied, as upstream applies it,
// with a warning.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import { makeCa, makeServingCert, type TestCredential } from '../helpers/certs.js';
import { opensslVerify } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { makeCsr, startSigning, submitApproved, until, waitForCertificate, writeCaFiles, type RunningSigning } from './support.js';

const LOADED = 'loaded a new signing CA';
// Upstream's CA loader refuses the pair, and its queue logs that through HandleError.
const REFUSED = 'Unhandled Error err="key failed with : ';

function replace(file: string, content: string): void {
  writeFileSync(`${file}.tmp`, content, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

describe('CA files rotated on disk', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  let files: { certFile: string; keyFile: string };
  const ca1 = makeCa({ commonName: 'ca-one' });
  const ca2 = makeCa({ commonName: 'ca-two' });
  const ca3 = makeCa({ commonName: 'ca-three' });

  async function issuedBy(name: string, ca: TestCredential, not: TestCredential): Promise<void> {
    await submitApproved(plat.admin, name, makeCsr({ cn: name }), APISERVER_CLIENT_SIGNER, ['client auth']);
    const { pem } = await waitForCertificate(plat.admin, name);
    assert.equal(opensslVerify(ca.certificatePem, pem).status, 0, `${name} is signed by the expected CA`);
    assert.notEqual(opensslVerify(not.certificatePem, pem).status, 0, `${name} is not signed by the other CA`);
  }

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    files = writeCaFiles(tempDir(), ca1);
    signing = await startSigning(plat, ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile]);
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('signs with the new CA once both files are replaced', async () => {
    await issuedBy('rot-before', ca1, ca2);
    replace(files.keyFile, ca2.privateKeyPem);
    replace(files.certFile, ca2.certificatePem);
    await until(() => signing.logs.has(LOADED), 'the new CA to be loaded');
    await issuedBy('rot-after', ca2, ca1);
  });

  it('keeps the current CA when the new files do not fit together', async () => {
    const refusedBefore = signing.logs.count(REFUSED);
    replace(files.certFile, ca3.certificatePem); // ca3's certificate with ca2's key
    await until(() => signing.logs.count(REFUSED) > refusedBefore, 'the mismatched pair to be refused');
    const line = signing.logs.lines.filter((l) => l.includes(REFUSED)).at(-1)!;
    assert.ok(line.endsWith(`${REFUSED}tls: private key does not match public key"`), line);
    assert.equal(signing.logs.count(LOADED), 1);
    await issuedBy('rot-mismatch', ca2, ca3);
  });

  it('applies a certificate that is not a CA, as upstream does, warning that nothing will verify what it signs', async () => {
    const loadedBefore = signing.logs.count(LOADED);
    const serving = makeServingCert(ca3, ['not-a-ca.example']);
    replace(files.keyFile, serving.privateKeyPem);
    replace(files.certFile, serving.certificatePem);
    await until(() => signing.logs.count(LOADED) > loadedBefore, 'the serving certificate to be loaded');
    assert.ok(signing.logs.lines.some((l) => l.includes('not a CA certificate (basic constraints CA:FALSE): certificates it signs will not verify')));
    // Signed with the serving key (openssl verify would refuse it as an issuer: hence the warning).
    await submitApproved(plat.admin, 'rot-not-ca', makeCsr({ cn: 'rot-not-ca' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    const { x509 } = await waitForCertificate(plat.admin, 'rot-not-ca');
    assert.ok(x509.verify(new X509Certificate(serving.certificatePem).publicKey));
    assert.notEqual(opensslVerify(serving.certificatePem, x509.toString()).status, 0);
  });
});
