// --feature-gates=APIResponseCompression=false turns off the gzip of large API answers, over real
// HTTPS, as upstream's handler chain leaves WithCompression out with the gate off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { b64, fixtures } from '../certificates/fixtures.js';
import { startInProcess } from '../helpers/plat.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('feature gate APIResponseCompression', () => {
  const cases: Array<[string, string[], boolean]> = [
    ['on by default', [], true],
    ['set on', ['--feature-gates=APIResponseCompression=true'], true],
    ['set off', ['--feature-gates=APIResponseCompression=false'], false],
    ['set off with the kube: prefix, in a second --feature-gates', ['--feature-gates=kube:RotateKubeletServerCertificate=true', '--feature-gates=kube:APIResponseCompression=false'], false],
  ];
  for (const [what, args, gzipped] of cases) {
    it(`${what}: a list past 128 KiB is ${gzipped ? 'gzipped' : 'sent as is'}`, async () => {
      const plat = await startInProcess({ args });
      try {
        // One object past the threshold (annotations may hold 256 KiB).
        const csr = {
          apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
          metadata: { name: 'big', annotations: { pad: 'x'.repeat(160 * 1024) } },
          spec: { request: b64(fixtures().ecCsrPem), signerName: 'example.com/test', usages: ['digital signature', 'client auth'] },
        };
        const created = await plat.admin.post(P, csr);
        assert.equal(created.status, 201, created.text);
        const r = await plat.admin.get(P, { 'accept-encoding': 'gzip' });
        assert.equal(r.status, 200);
        assert.ok(r.raw.length > 0);
        if (gzipped) {
          assert.equal(r.headers['content-encoding'], 'gzip');
        } else {
          assert.equal(r.headers['content-encoding'], undefined);
          assert.ok(r.raw.length > 160 * 1024);
          assert.equal(JSON.parse(r.text).items[0].metadata.name, 'big');
        }
      } finally {
        await plat.stop();
      }
    });
  }
});
