// status.certificate validation: the Kubernetes messages, table-driven; failures name the case.
import test from 'node:test';
import assert from 'node:assert/strict';
import { decodePemBlocks, encodePem, validateCertificatePem } from '../../core/crypto/index.js';
import { readTlv } from '../../core/crypto/der.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { opensslCa } from '../helpers/openssl.js';

const ca = makeCa();
const leaf = makeCert(ca, { commonName: 'leaf', extKeyUsage: ['client auth'] });
const foreign = decodePemBlocks(opensslCa('/CN=openssl-ca/O=x', 'rsa-2048').certPem)[0]!.der;

const pem = (der: Uint8Array): string => encodePem('CERTIFICATE', der);
const cat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

function outerAlgorithmSwapped(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der);
  const cert = readTlv(copy, 0);
  const tbs = readTlv(copy, cert.contentStart);
  const alg = readTlv(copy, tbs.end);
  copy[alg.end - 1]! ^= 0x01; // last OID byte: ecdsa-with-SHA256 -> ecdsa-with-SHA384
  return copy;
}

const cases: { id: string; input: string | Uint8Array; error?: string; count?: number }[] = [
  { id: 'one certificate', input: leaf.certificatePem, count: 1 },
  { id: 'certificate made by openssl', input: pem(foreign), count: 1 },
  { id: 'leaf then CA, two blocks', input: leaf.certificatePem + ca.certificatePem, count: 2 },
  { id: 'two certificates concatenated in one block', input: pem(cat(leaf.der, ca.der)), count: 2 },
  { id: 'three certificates, one block plus one', input: pem(cat(leaf.der, foreign)) + ca.certificatePem, count: 3 },
  { id: 'explanatory text around and between', input: `Subject: leaf\n${leaf.certificatePem}\nIssuer: ca\n${ca.certificatePem}-- end --\n`, count: 2 },
  { id: 'bytes input', input: Buffer.from(leaf.certificatePem), count: 1 },
  { id: 'empty is allowed', input: '', count: 0 },
  { id: 'no block', input: 'no pem here', error: 'must contain at least one CERTIFICATE PEM block' },
  { id: 'only a broken block', input: '-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n', error: 'must contain at least one CERTIFICATE PEM block' },
  { id: 'wrong label', input: encodePem('CERTIFICATE REQUEST', leaf.der), error: 'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"' },
  { id: 'wrong label in second block', input: leaf.certificatePem + encodePem('PRIVATE KEY', leaf.der), error: 'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"' },
  { id: 'headers', input: leaf.certificatePem.replace('-----\n', '-----\nComment: hi\n\n'), error: 'no PEM block headers are permitted' },
  { id: 'zero certificates', input: pem(new Uint8Array(0)), error: 'found CERTIFICATE PEM block containing 0 certificates' },
  { id: 'not DER', input: pem(new Uint8Array([1, 2, 3])), error: 'x509: malformed certificate' },
  { id: 'trailing byte after a certificate', input: pem(cat(leaf.der, new Uint8Array([0]))), error: 'x509: malformed certificate' },
  { id: 'truncated certificate', input: pem(leaf.der.subarray(0, leaf.der.length - 3)), error: 'x509: malformed certificate' },
  { id: 'a certificate request is not a certificate', input: pem(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00])), error: 'x509: malformed tbs certificate' },
  { id: 'inner and outer algorithms differ', input: pem(outerAlgorithmSwapped(leaf.der)), error: "x509: inner and outer signature algorithm identifiers don't match" },
  { id: 'good block then bad block', input: leaf.certificatePem + pem(new Uint8Array([0x30, 0x00])), error: 'x509: malformed tbs certificate' },
];

for (const c of cases) {
  test(`validateCertificatePem: ${c.id}`, () => {
    const r = validateCertificatePem(c.input);
    if (c.error !== undefined) {
      assert.deepEqual(r, { ok: false, error: c.error }, c.id);
    } else {
      assert.ok(r.ok, `${c.id}: ${r.ok ? '' : r.error}`);
      assert.equal(r.certificates.length, c.count, c.id);
    }
  });
}

test('validateCertificatePem returns each certificate DER in order', () => {
  const r = validateCertificatePem(pem(cat(leaf.der, ca.der)));
  assert.ok(r.ok);
  assert.deepEqual(r.certificates, [leaf.der, ca.der]);
});
