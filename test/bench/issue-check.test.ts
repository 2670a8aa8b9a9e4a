// What `plat bench issue` counts as issued (bench/issue/check.ts), case by case with real
// certificates: the right one passes; a missing one, two in one PEM, one from another CA, one
// carrying another key and a serial seen before are each a problem, named after the CSR.
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { CertificateChecker } from '../../bench/issue/check.js';
import { makeCa, type BenchCsr } from '../../bench/issue/inputs.js';
import { createCertificate, createCsr, generateKeyPair } from '../../core/crypto/index.js';

const NOW = new Date();
const ca = makeCa('p256', NOW);
const otherCa = makeCa('p256', NOW);

function csrFor(name: string): { csr: BenchCsr; key: ReturnType<typeof generateKeyPair> } {
  const key = generateKeyPair('ecdsa-p256');
  const pem = createCsr({ subject: { commonName: name }, privateKey: key.keyObject });
  return { csr: { name, pem, spki: createPublicKey(key.keyObject).export({ type: 'spki', format: 'der' }) }, key };
}

function issue(by: { certificatePem: string; privateKeyPem: string }, publicKeyOf: ReturnType<typeof generateKeyPair>, serial?: number): string {
  return createCertificate({
    template: {
      subject: { commonName: 'leaf' }, notBefore: new Date(NOW.getTime() - 60_000), notAfter: new Date(NOW.getTime() + 3_600_000),
      keyUsage: ['digital signature'], extKeyUsage: ['client auth'],
      ...(serial !== undefined ? { serialNumber: new Uint8Array([serial]) } : {}),
    },
    publicKey: publicKeyOf.keyObject, issuer: { certificatePem: by.certificatePem, privateKey: by.privateKeyPem }, signer: by.privateKeyPem,
  }).certificatePem;
}

describe('plat bench issue: the certificate check', () => {
  it('passes a certificate of the run\'s CA for the CSR\'s own key', () => {
    const checker = new CertificateChecker(ca.certificatePem);
    const { csr, key } = csrFor('good');
    assert.equal(checker.check(csr, issue(ca, key)), true);
    assert.deepEqual(checker.summary(), { verified: 1, problems: [], problemCount: 0 });
  });

  const cases: [string, (c: CertificateChecker) => boolean, RegExp][] = [
    ['missing', (c) => c.check(csrFor('missing').csr, undefined), /^missing: no certificate$/],
    ['two certificates', (c) => { const { csr, key } = csrFor('two'); return c.check(csr, issue(ca, key) + issue(ca, key)); }, /^two: 2 certificates where one was expected$/],
    ['another CA', (c) => { const { csr, key } = csrFor('foreign'); return c.check(csr, issue(otherCa, key)); }, /^foreign: not signed by the run's CA$/],
    ['another key', (c) => c.check(csrFor('swapped').csr, issue(ca, csrFor('x').key)), /^swapped: the certificate's public key is not the CSR's$/],
    ['a serial seen before', (c) => {
      const a = csrFor('first');
      const b = csrFor('second');
      assert.equal(c.check(a.csr, issue(ca, a.key, 7)), true);
      return c.check(b.csr, issue(ca, b.key, 7));
    }, /^second: serial 07 also issued to first$/],
  ];
  for (const [what, run, problem] of cases) {
    it(`counts ${what} as a problem`, () => {
      const checker = new CertificateChecker(ca.certificatePem);
      assert.equal(run(checker), false);
      const summary = checker.summary();
      assert.equal(summary.problemCount, 1);
      assert.match(summary.problems[0]!, problem);
    });
  }
});
