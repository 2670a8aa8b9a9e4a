// Load: 1,000 CSRs created at once and approved through /approval by the admin are all issued,
// none lost and none issued twice: each certificate verifies under the CA, carries its own
// request's key and subject, and every serial is unique.
import assert from 'node:assert/strict';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { opensslVerify } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { CSRS, approve, certificateOf, createCsrObject, csrBody, makeCsr, startSigning, until, writeCaFiles, type RunningSigning } from './support.js';

const N = 1000;

async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await task(next++);
  }));
}

describe(`${N} CSRs at once`, () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  const ca = makeCa({ commonName: 'bulk-ca' });

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    const files = writeCaFiles(tempDir(), ca);
    signing = await startSigning(plat, ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile]);
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('issues every one, once', async () => {
    const csrs = Array.from({ length: N }, (_, i) => makeCsr({ cn: `bulk-${i}`, orgs: ['bulk'] }));
    await inParallel(N, 32, (i) => createCsrObject(plat.admin, csrBody(`bulk-${i}`, csrs[i]!, APISERVER_CLIENT_SIGNER, ['digital signature', 'client auth'])));
    await inParallel(N, 32, (i) => approve(plat.admin, `bulk-${i}`));

    let items: any[] = [];
    await until(async () => {
      const r = await plat.admin.get(CSRS);
      items = r.json.items;
      return items.filter((o) => o.status?.certificate).length === N;
    }, `all ${N} certificates`, 240, 250);

    const caCert = new X509Certificate(ca.certificatePem);
    const serials = new Set<string>();
    for (const obj of items) {
      const i = Number(/^bulk-(\d+)$/.exec(obj.metadata.name)![1]);
      const pem = certificateOf(obj);
      assert.equal(pem.match(/-----BEGIN CERTIFICATE-----/g)?.length, 1, obj.metadata.name);
      const x = new X509Certificate(pem);
      assert.ok(x.verify(caCert.publicKey), `${obj.metadata.name}: signed by the CA`);
      assert.ok(x.publicKey.equals(createPublicKey(csrs[i]!.key)), `${obj.metadata.name}: its own key`);
      assert.equal(x.subject, `O=bulk\nCN=bulk-${i}`);
      assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved'], `${obj.metadata.name}: not failed`);
      serials.add(x.serialNumber);
    }
    assert.equal(serials.size, N, 'unique serials');
    for (const obj of items.slice(0, 5)) assert.equal(opensslVerify(ca.certificatePem, certificateOf(obj), { purpose: 'sslclient' }).status, 0);
    assert.equal(signing.logs.count('error auto signing csr'), 0);
  });
});
