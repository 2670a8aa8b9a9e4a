// status.certificate validation: the Kubernetes messages, table-driven; failures name the case.
import test from 'node:test';
import assert from 'node:assert/strict';
import { decodePemBlocks, encodePem, parseCertificate, validateCertificatePem, validateCertificatePemTypescript } from '../../core/crypto/index.js';
import { seq, tlv } from '../../core/crypto/der-write.js';
import { readTlv } from '../../core/crypto/der.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { opensslCa } from '../helpers/openssl.js';
import { goParseCases } from './cert-go-parse-cases.js';
import { withTbsFields } from './cert-craft.js';

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

// Go 1.23's ParseCertificates rules for extensions, DSA keys and Validity: the facade (WASM) and the
// TypeScript reference both give Go's verdict and text on every case.
for (const c of goParseCases(leaf.der)) {
  test(`validateCertificatePem, Go parse rules: ${c.id}`, () => {
    const expected = c.error === undefined ? { ok: true, certificates: [c.der] } : { ok: false, error: c.error };
    assert.deepEqual(validateCertificatePem(pem(c.der)), expected, `${c.id} (facade)`);
    const typescript = c.nodeRefuses ? { ok: false, error: 'x509: malformed certificate' } : expected;
    assert.deepEqual(validateCertificatePemTypescript(pem(c.der)), typescript, `${c.id} (TypeScript)`);
  });
}

test('parseCertificate: notBefore and notAfter of UTCTime without seconds and with offsets', () => {
  const der = withTbsFields(leaf.der, { validity: seq(tlv(0x17, Buffer.from('2401010000Z')), tlv(0x17, Buffer.from('500101000000+0130'))) });
  const c = parseCertificate(der);
  assert.equal(c.notBefore.toISOString(), '2024-01-01T00:00:00.000Z');
  assert.equal(c.notAfter.toISOString(), '1949-12-31T22:30:00.000Z');
});
