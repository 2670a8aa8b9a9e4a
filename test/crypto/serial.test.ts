// Every path that draws a serial draws it from [1, 2^128) as upstream's rand.Int(rand.Reader, 2^128):
// the signing controller's, issueCertificate's and createCertificate's defaults (plat ca, plat all's
// pki). A path that clears the top bit or forces the lowest one gives itself away: over 64 draws the
// odds that a uniform draw never sets the top bit, or is never even, are 2^-64.
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCertificate, createCsr, issueCertificate } from '../../core/crypto/index.js';
import { randomSerial } from '../../core/crypto/serial.js';

const DRAWS = 64;
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const now = Date.now();
const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000) };
const ca = createCertificate({
  template: { subject: { commonName: 'serial CA' }, ...validity, isCA: true, keyUsage: ['cert sign', 'digital signature'] },
  publicKey: key, signer: key,
});
const csr = createCsr({ subject: { commonName: 'serial' }, privateKey: key });

function assertUniform(serials: bigint[]): void {
  assert.equal(new Set(serials).size, serials.length, 'no serial repeats');
  for (const s of serials) assert.ok(s > 0n && s < 1n << 128n, `${s.toString(16)} in [1, 2^128)`);
  assert.ok(serials.some((s) => s >= 1n << 127n), 'the top bit is drawn too');
  assert.ok(serials.some((s) => (s & 1n) === 0n), 'even serials are drawn too');
}

const serialOf = (pem: string): bigint => BigInt(`0x${new X509Certificate(pem).serialNumber}`);

describe('certificate serials: 128 random bits on every path', () => {
  it('randomSerial', () => {
    assertUniform(Array.from({ length: DRAWS }, () => BigInt(`0x${Buffer.from(randomSerial()).toString('hex')}`)));
  });
  it('createCertificate without a serialNumber', () => {
    assertUniform(Array.from({ length: DRAWS }, () => serialOf(createCertificate({
      template: { subject: { commonName: 'leaf' }, ...validity }, publicKey: key, signer: key,
    }).certificatePem)));
  });
  it('issueCertificate without a serialNumber (the WASM builder\'s default)', () => {
    const issuing = { certificatePem: ca.certificatePem, privateKey: key };
    assertUniform(Array.from({ length: DRAWS }, () => serialOf(issueCertificate(csr, issuing, { usages: ['client auth'], ...validity }).certificatePem)));
  });
});
