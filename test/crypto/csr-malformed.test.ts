// Malformed CSR content that only hand-assembly produces; each case expects Go's parse error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CryptoError, parseCsr, parseCsrTypescript, verifyCsr } from '../../core/crypto/index.js';
import { bitString, concat, oid, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { cnName, craftCsr, extension, extensionRequest, OIDS } from './csr-craft.js';

const ecKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const edKey = generateKeyPairSync('ed25519').privateKey;
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;

const san = (...names: Uint8Array[]): Uint8Array => extension(OIDS.san, seq(...names));
const dns = (s: string): Uint8Array => tlv(0x82, Buffer.from(s));

function fails(pem: string, message: string): void {
  assert.throws(() => parseCsr(pem), (e: unknown) => {
    assert.ok(e instanceof CryptoError, String(e));
    assert.equal(e.message, message);
    return true;
  });
}

test('duplicate requested extensions', () => {
  fails(craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a')), san(dns('b')))] }), 'x509: certificate request contains duplicate requested extensions');
  // Also across two extensionRequest attributes.
  fails(
    craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a'))), extensionRequest(san(dns('b')))] }),
    'x509: certificate request contains duplicate requested extensions',
  );
});

test('SAN content errors', () => {
  fails(craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x87, new Uint8Array(5))))] }), 'x509: cannot parse IP address of length 5');
  fails(craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x82, new Uint8Array([0xc3, 0xa9]))))] }), 'x509: SAN dNSName is malformed');
  fails(craftCsr({ key: ecKey, attributes: [extensionRequest(extension(OIDS.san, tlv(0x04, new Uint8Array(0))))] }), 'x509: invalid subject alternative names');
  // Other GeneralName forms are ignored, as in Go.
  const ok = parseCsr(craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a'), tlv(0xa4, cnName('dir'))))] }));
  assert.deepEqual(ok.dnsNames, ['a']);
});

test('attributes that do not parse are skipped; other attributes ignored', () => {
  const challenge = seq(oid('1.2.840.113549.1.9.7'), setOf(tlv(0x0c, Buffer.from('secret'))));
  const csr = parseCsr(craftCsr({ key: ecKey, attributes: [smallInteger(5), challenge, extensionRequest(san(dns('x')))] }));
  assert.deepEqual(csr.dnsNames, ['x']);
  verifyCsr(csr);
});

// Go reads a CSR's subject with encoding/asn1: its string checks are SyntaxErrors, except
// parseUTF8String's and parseBMPString's plain errors. Both parsers (WASM and TypeScript) alike.
const SUBJECT_VALUE_ERRORS: [string, Uint8Array, string][] = [
  ['PrintableString with @', tlv(0x13, Buffer.from('a@b')), 'asn1: syntax error: PrintableString contains invalid character'],
  ['IA5String with a byte >= 0x80', tlv(0x16, new Uint8Array([0x61, 0x80])), 'asn1: syntax error: IA5String contains invalid character'],
  ['NumericString with a letter', tlv(0x12, Buffer.from('12a')), 'asn1: syntax error: NumericString contains invalid character'],
  ['UTF8String, a lone 0xff', tlv(0x0c, new Uint8Array([0xff])), 'asn1: invalid UTF-8 string'],
  ['UTF8String "al\\xffice"', tlv(0x0c, Buffer.from('al\xffice', 'latin1')), 'asn1: invalid UTF-8 string'],
  ['UTF8String, an encoded surrogate', tlv(0x0c, new Uint8Array([0xed, 0xa0, 0x80])), 'asn1: invalid UTF-8 string'],
  ['UTF8String, truncated sequence', tlv(0x0c, new Uint8Array([0x61, 0xc3])), 'asn1: invalid UTF-8 string'],
  ['BMPString of odd length', tlv(0x1e, new Uint8Array([0, 0x41, 0])), 'pkcs12: odd-length BMP string'],
];

for (const [name, value, message] of SUBJECT_VALUE_ERRORS) {
  test(`subject value error: ${name}`, () => {
    const pem = craftCsr({ key: ecKey, subject: seq(setOf(seq(oid(OIDS.cn), value))) });
    fails(pem, message);
    assert.throws(() => parseCsrTypescript(pem), (e: unknown) => e instanceof CryptoError && e.message === message);
  });
}

test('subject structure errors and non-string values', () => {
  fails(craftCsr({ key: ecKey, subject: seq(seq()) }), 'asn1: structure error: sequence tag mismatch');
  // Non-string values are kept as #hex and do not count as a CN (Go's FillFromRDNSequence).
  const intCn = seq(setOf(seq(oid(OIDS.cn), smallInteger(7))));
  const csr = parseCsr(craftCsr({ key: ecKey, subject: intCn }));
  assert.equal(csr.commonName, '');
  assert.deepEqual(csr.subject, [[{ type: OIDS.cn, shortName: 'CN', value: '#020107' }]]);
  // Go's parseT61String takes any byte as string(bytes) (the value fails later, when signing re-marshals it):
  // a byte that is not UTF-8 reads as U+DC80+byte, never as a Latin-1 letter.
  assert.equal(parseCsr(craftCsr({ key: ecKey, subject: seq(setOf(seq(oid(OIDS.cn), tlv(0x14, Buffer.from('al\xe9ce', 'latin1'))))) })).commonName, 'al\udce9ce');
});

test('Go keeps the LAST common name', () => {
  const two = concat([cnName('first'), cnName('second')].map((n) => n.subarray(2)));
  const csr = parseCsr(craftCsr({ key: ecKey, subject: tlv(0x30, two) }));
  assert.equal(csr.commonName, 'second');
  assert.equal(csr.subject.length, 2);
});

test('public key errors', () => {
  const ecSpki = new Uint8Array(createPublicKey(ecKey).export({ type: 'spki', format: 'der' }));
  const offCurve = new Uint8Array(ecSpki);
  offCurve[offCurve.length - 1]! ^= 0x01;
  fails(craftCsr({ key: ecKey, spki: offCurve }), 'x509: failed to unmarshal elliptic curve point');
  const compressed = seq(seq(oid('1.2.840.10045.2.1'), oid('1.2.840.10045.3.1.7')), bitString(new Uint8Array([0x02, ...ecSpki.subarray(-64, -32)])));
  fails(craftCsr({ key: ecKey, spki: compressed }), 'x509: failed to unmarshal elliptic curve point');
  const noCurve = seq(seq(oid('1.2.840.10045.2.1')), bitString(ecSpki.subarray(-65)));
  fails(craftCsr({ key: ecKey, spki: noCurve }), 'x509: invalid ECDSA parameters');
  // Go's parsePublicKey since 1.17 (ReadASN1ObjectIdentifier fails): parameters NULL, or explicit ones.
  const nullCurve = seq(seq(oid('1.2.840.10045.2.1'), new Uint8Array([0x05, 0x00])), bitString(ecSpki.subarray(-65)));
  fails(craftCsr({ key: ecKey, spki: nullCurve }), 'x509: invalid ECDSA parameters');

  const edRaw = new Uint8Array(createPublicKey(edKey).export({ type: 'spki', format: 'der' })).subarray(-32);
  fails(craftCsr({ key: edKey, spki: seq(seq(oid(OIDS.ed25519), tlv(0x05, new Uint8Array(0))), bitString(edRaw)) }), 'x509: Ed25519 key encoded with illegal parameters');
  fails(craftCsr({ key: edKey, spki: seq(seq(oid(OIDS.ed25519)), bitString(edRaw.subarray(1))) }), 'x509: wrong Ed25519 public key size');

  const rsaSpki = new Uint8Array(createPublicKey(rsaKey).export({ type: 'spki', format: 'der' }));
  // rsaEncryption without the NULL parameters: rebuild the SPKI from its BIT STRING.
  const pkcs1 = new Uint8Array(rsaKey.export({ type: 'pkcs1', format: 'der' }));
  fails(craftCsr({ key: rsaKey, spki: seq(seq(oid('1.2.840.113549.1.1.1')), bitString(pkcs1)) }), 'x509: RSA key missing NULL parameters');
  assert.ok(rsaSpki.length > 0);
  // Unknown key algorithms parse (Go leaves the key nil) and fail only at verification.
  const x25519 = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' });
  const csr = parseCsr(craftCsr({ key: ecKey, spki: new Uint8Array(x25519) }));
  assert.equal(csr.publicKey.algorithm, 'unknown');
  assert.throws(() => verifyCsr(csr), { message: 'x509: cannot verify signature: algorithm unimplemented' });
});
