// Corners where the CSR parsers read differently from Go's ParseCertificateRequest: what Go ignores
// must not reach the certificate, and what Go refuses must be refused with its text. Each case runs
// through the WASM parser (the hot path), the TypeScript reference and issueCertificate.
import test from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { CryptoError, issueCertificate, parseCsr, parseCsrTypescript } from '../../core/crypto/index.js';
import { oid, printableString, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { makeCa } from '../helpers/certs.js';
import { OIDS, craftCsr, extension } from './csr-craft.js';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ca = makeCa();
const issue = (pem: string) => issueCertificate(pem, { certificatePem: ca.certificatePem, privateKey: ca.keyObject },
  { usages: ['digital signature', 'client auth'], notBefore: new Date(), notAfter: new Date(Date.now() + 3600e3) });
const raw = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/ /g, ''), 'hex'));
const sanDns = (name: string): Uint8Array => extension(OIDS.san, seq(tlv(0x82, Buffer.from(name, 'latin1'))));

// encoding/asn1 unmarshals the whole pkcs10Attribute, every value of its SET; when one of them does
// not read, parseCSRExtensions skips the attribute, so its first value's extensions are never requested.
const unreadableSecondValues: { id: string; value: string }[] = [
  { id: 'truncated', value: '04 05 00' },
  { id: 'indefinite length', value: '30 80 00 00' },
  { id: 'non-minimal length', value: '04 81 01 00' },
  { id: 'non-minimal high tag', value: '1f 01 00' },
];

for (const c of unreadableSecondValues) {
  test(`extensionRequest whose second value is unreadable (${c.id}): Go ignores the attribute, no SAN is issued`, () => {
    const attr = seq(oid(OIDS.extensionRequest), tlv(0x31, Buffer.concat([seq(sanDns('evil.example')), raw(c.value)])));
    const pem = craftCsr({ key: privateKey, attributes: [attr] });
    for (const parse of [parseCsr, parseCsrTypescript]) {
      const csr = parse(pem);
      assert.deepEqual(csr.dnsNames, []);
      assert.deepEqual(csr.extensions, []);
    }
    assert.equal(new X509Certificate(issue(pem).certificatePem).subjectAltName, undefined);
  });
}

test('extensionRequest with two readable values: the first value is the one requested, as in Go', () => {
  const attr = seq(oid(OIDS.extensionRequest), setOf(seq(sanDns('a.example')), seq(sanDns('b.example'))));
  const pem = craftCsr({ key: privateKey, attributes: [attr] });
  for (const parse of [parseCsr, parseCsrTypescript]) assert.deepEqual(parse(pem).dnsNames, ['a.example']);
  assert.equal(new X509Certificate(issue(pem).certificatePem).subjectAltName, 'DNS:a.example');
});

function refused(pem: string, message: string): void {
  for (const parse of [parseCsr, parseCsrTypescript]) {
    assert.throws(() => parse(pem), (e: unknown) => e instanceof CryptoError && e.message === message, parse.name);
  }
  assert.throws(() => issue(pem), (e: unknown) => e instanceof CryptoError && e.message === message);
}

// cryptobyte's ReadAnyASN1 (forEachSAN) refuses the high-tag-number form outright.
const highTagSans: { id: string; entry: string }[] = [
  { id: '[31] primitive', entry: '9f 1f 01 61' },
  { id: '[200] constructed', entry: 'bf 81 48 00' },
];
for (const c of highTagSans) {
  test(`SAN entry with a high tag number (${c.id}) is refused: x509: invalid subject alternative name`, () => {
    const san = extension(OIDS.san, tlv(0x30, Buffer.concat([tlv(0x82, Buffer.from('ok.example')), raw(c.entry)])));
    const pem = craftCsr({ key: privateKey, attributes: [seq(oid(OIDS.extensionRequest), setOf(seq(san)))] });
    refused(pem, 'x509: invalid subject alternative name');
  });
}

// encoding/asn1 decodes INTEGER, BIT STRING and OBJECT IDENTIFIER attribute values of the subject
// into the `any` Value (parseInt64, parseBitString, parseObjectIdentifier); a bad one fails the CSR.
const subjectValues: { id: string; value: string; message?: string }[] = [
  { id: 'INTEGER not minimal', value: '02 02 00 01', message: 'asn1: structure error: integer not minimally-encoded' },
  { id: 'empty INTEGER', value: '02 00', message: 'asn1: structure error: empty integer' },
  { id: 'INTEGER over 64 bits', value: '02 09 01 00 00 00 00 00 00 00 00', message: 'asn1: structure error: integer too large' },
  { id: 'BIT STRING bad padding', value: '03 02 01 01', message: 'asn1: syntax error: invalid padding bits in BIT STRING' },
  { id: 'empty BIT STRING', value: '03 00', message: 'asn1: syntax error: zero length BIT STRING' },
  { id: 'empty OBJECT IDENTIFIER', value: '06 00', message: 'asn1: syntax error: zero length OBJECT IDENTIFIER' },
  { id: 'OBJECT IDENTIFIER truncated', value: '06 02 2a 86', message: 'asn1: syntax error: truncated base 128 integer' },
  { id: 'good INTEGER', value: '02 01 05' },
  { id: 'good OBJECT IDENTIFIER', value: '06 03 2a 03 04' },
  { id: 'OCTET STRING (never decoded)', value: '04 01 ff' },
];
for (const c of subjectValues) {
  test(`CSR subject value ${c.id}: ${c.message ?? 'accepted, as by Go'}`, () => {
    const subject = seq(setOf(seq(oid('2.5.4.45'), raw(c.value))), setOf(seq(oid(OIDS.cn), printableString('x'))));
    const pem = craftCsr({ key: privateKey, subject });
    if (c.message !== undefined) return refused(pem, c.message);
    for (const parse of [parseCsr, parseCsrTypescript]) assert.equal(parse(pem).commonName, 'x');
  });
}

test('a plain SAN still issues', () => {
  const san = extension(OIDS.san, seq(tlv(0x82, Buffer.from('ok.example')), tlv(0x81, Buffer.from('a@b.example'))));
  const pem = craftCsr({ key: privateKey, attributes: [seq(oid(OIDS.extensionRequest), setOf(seq(san)))] });
  assert.equal(new X509Certificate(issue(pem).certificatePem).subjectAltName, 'DNS:ok.example, email:a@b.example');
});

// encoding/asn1's parseBMPString decodes with utf16.Decode: an unpaired surrogate is U+FFFD in the
// parsed name (what approvers compare), not a lone UTF-16 unit; a pair is one character.
const bmpNames: { id: string; value: number[]; commonName: string }[] = [
  { id: 'a lone high surrogate', value: [0xd8, 0x00, 0, 0x41], commonName: '\ufffdA' },
  { id: 'a lone low surrogate', value: [0, 0x41, 0xdc, 0x00], commonName: 'A\ufffd' },
  { id: 'a surrogate pair', value: [0xd8, 0x3d, 0xde, 0x00], commonName: '\u{1f600}' },
];
for (const c of bmpNames) {
  test(`CSR subject BMPString CN with ${c.id}: commonName as Go decodes it`, () => {
    const subject = seq(setOf(seq(oid(OIDS.cn), tlv(0x1e, Uint8Array.from(c.value)))));
    const pem = craftCsr({ key: privateKey, subject });
    for (const parse of [parseCsr, parseCsrTypescript]) assert.equal(parse(pem).commonName, c.commonName, parse.name);
  });
}
