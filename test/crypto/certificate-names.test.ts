// Certificate Names with bad contents: Go's crypto/x509 parseName texts (Go 1.23: parseASN1String
// errors, "unsupported string type" for every non-string value), through both certificate parsers.
// CSR subjects are read by encoding/asn1 and have their own texts (csr-malformed.test.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { CryptoError, encodePem, parseCertificate, validateCertificatePem, validateCertificatePemTypescript } from '../../core/crypto/index.js';
import { oid, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { rawName, withTbsFields } from './cert-craft.js';

const ca = makeCa();
const leaf = makeCert(ca, { commonName: 'leaf' });

const CN = '2.5.4.3';
const RDN = 'x509: invalid RDNSequence';
const VALUE = `${RDN}: invalid attribute value`;
const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');
/** A Name of one RDN holding one attribute: CN = `value` (an element). */
const cnWith = (value: Uint8Array | number[]): Uint8Array => seq(setOf(seq(oid(CN), Uint8Array.from(value))));
/** A Name of one RDN whose SET holds `content` as is. */
const setHolding = (...content: number[]): Uint8Array => seq(tlv(0x31, Uint8Array.from(content)));

const NAME_ERRORS: [string, Uint8Array, string][] = [
  ['an RDN that is a SEQUENCE, not a SET', seq(seq(seq(oid(CN), tlv(0x13, bytes('a'))))), RDN],
  ['an RDN running past the Name', rawName([0x31, 0x05, 0x30, 0x00]), RDN],
  ['an attribute that is a SET, not a SEQUENCE', seq(setOf(tlv(0x31, seq(oid(CN), tlv(0x13, bytes('a')))))), `${RDN}: invalid attribute`],
  ['an attribute running past its RDN', setHolding(0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x03), `${RDN}: invalid attribute`],
  ['an attribute without a type', seq(setOf(seq(tlv(0x13, bytes('a'))))), `${RDN}: invalid attribute type`],
  ['an empty attribute', seq(setOf(seq())), `${RDN}: invalid attribute type`],
  ['a type OID of length 0', seq(setOf(seq(tlv(0x06, new Uint8Array(0)), tlv(0x13, bytes('a'))))), `${RDN}: invalid attribute type`],
  ['a type OID not minimally encoded', seq(setOf(seq(tlv(0x06, Uint8Array.from([0x55, 0x80, 0x04])), tlv(0x13, bytes('a'))))), `${RDN}: invalid attribute type`],
  ['a type OID with a truncated arc', seq(setOf(seq(tlv(0x06, Uint8Array.from([0x55, 0x84])), tlv(0x13, bytes('a'))))), `${RDN}: invalid attribute type`],
  ['an attribute without a value', seq(setOf(seq(oid(CN)))), VALUE],
  ['a value running past its attribute', seq(setOf(seq(oid(CN), Uint8Array.from([0x13, 0x05, 0x61])))), VALUE],
  ['a value with a high tag number', cnWith([0x1f, 0x1f, 0x00]), VALUE],
  ['a value with an indefinite length', seq(setOf(seq(oid(CN), Uint8Array.from([0x13, 0x80, 0x00, 0x00])))), VALUE],
  ['a PrintableString with @', cnWith(tlv(0x13, bytes('a@b'))), `${VALUE}: invalid PrintableString`],
  ['a UTF8String with a lone 0xff', cnWith(tlv(0x0c, bytes('al\xffice'))), `${VALUE}: invalid UTF-8 string`],
  ['a UTF8String holding an encoded surrogate', cnWith(tlv(0x0c, Uint8Array.from([0xed, 0xa0, 0x80]))), `${VALUE}: invalid UTF-8 string`],
  ['a BMPString of odd length', cnWith(tlv(0x1e, Uint8Array.from([0, 0x41, 0]))), `${VALUE}: invalid BMPString`],
  ['a BMPString holding a lone surrogate', cnWith(tlv(0x1e, Uint8Array.from([0xd8, 0x00, 0, 0x41]))), `${VALUE}: invalid BMPString`],
  ['a BMPString holding a surrogate pair', cnWith(tlv(0x1e, Uint8Array.from([0xd8, 0x3d, 0xde, 0x00]))), `${VALUE}: invalid BMPString`],
  ['a BMPString holding the noncharacter U+FFFE', cnWith(tlv(0x1e, Uint8Array.from([0xff, 0xfe]))), `${VALUE}: invalid BMPString`],
  ['a BMPString holding the noncharacter U+FDD0', cnWith(tlv(0x1e, Uint8Array.from([0, 0x41, 0xfd, 0xd0]))), `${VALUE}: invalid BMPString`],
  ['an IA5String with a byte >= 0x80', cnWith(tlv(0x16, Uint8Array.from([0x61, 0x80]))), `${VALUE}: invalid IA5String`],
  ['a NumericString with a letter', cnWith(tlv(0x12, bytes('12a'))), `${VALUE}: invalid NumericString`],
  ['an INTEGER value', cnWith(smallInteger(5)), `${VALUE}: unsupported string type: 2`],
  ['a NULL value', cnWith([0x05, 0x00]), `${VALUE}: unsupported string type: 5`],
  ['a SEQUENCE value', cnWith(seq()), `${VALUE}: unsupported string type: 48`],
  ['a constructed UTF8String', cnWith(tlv(0x2c, tlv(0x0c, bytes('a')))), `${VALUE}: unsupported string type: 44`],
  ['a context-specific [0] value', cnWith(tlv(0xa0, new Uint8Array(0))), `${VALUE}: unsupported string type: 160`],
  ['a GeneralString (not one of the six)', cnWith(tlv(0x1b, bytes('a'))), `${VALUE}: unsupported string type: 27`],
  ['a bad value in a later RDN', seq(setOf(seq(oid(CN), tlv(0x13, bytes('ok')))), setOf(seq(oid(CN), tlv(0x13, bytes('a_b'))))), `${VALUE}: invalid PrintableString`],
];

/** Names Go accepts (its parseName reads one value per attribute and nothing after it). */
const NAMES_ACCEPTED: [string, Uint8Array, string][] = [
  ['an empty Name', seq(), ''],
  ['an empty RDN', seq(setOf()), ''],
  // Go 1.23's parseASN1String: string(value). Bytes that are not UTF-8 read as U+DC80+byte (go-bytes-string.ts).
  ['a T61String with a byte >= 0x80 that is not UTF-8', cnWith(tlv(0x14, bytes('al\xe9ce'))), 'al\udce9ce'],
  ['a T61String holding UTF-8', cnWith(tlv(0x14, Uint8Array.from([0x61, 0xc3, 0xa9]))), 'a\u00e9'],
  ['an element after the value', seq(setOf(seq(oid(CN), tlv(0x13, bytes('cn')), smallInteger(1)))), 'cn'],
  ['a BMPString with a trailing terminator', cnWith(tlv(0x1e, Uint8Array.from([0, 0x41, 0, 0]))), 'A'],
  ['a BMPString just around the refused ranges', cnWith(tlv(0x1e, Uint8Array.from([0xd7, 0xff, 0xe0, 0x00, 0xfd, 0xcf, 0xfd, 0xf0, 0xff, 0xfd]))), '\ud7ff\ue000\ufdcf\ufdf0\ufffd'],
  ['PrintableString with * and &', cnWith(tlv(0x13, bytes('*.a&b'))), '*.a&b'],
];

function both(der: Uint8Array): { wasm: string | undefined; ts: string | undefined; tsParse: string | undefined } {
  const input = encodePem('CERTIFICATE', der);
  const w = validateCertificatePem(input);
  const t = validateCertificatePemTypescript(input);
  let tsParse: string | undefined;
  try {
    parseCertificate(der);
  } catch (e) {
    if (!(e instanceof CryptoError)) throw e;
    tsParse = e.message;
  }
  return { wasm: w.ok ? undefined : w.error, ts: t.ok ? undefined : t.error, tsParse };
}

for (const [id, name, message] of NAME_ERRORS) {
  for (const field of ['issuer', 'subject'] as const) {
    test(`certificate ${field} with ${id}: ${message}`, () => {
      const r = both(withTbsFields(leaf.der, { [field]: name }));
      assert.deepEqual(r, { wasm: message, ts: message, tsParse: message });
    });
  }
}

for (const [id, name, commonName] of NAMES_ACCEPTED) {
  test(`certificate subject with ${id} parses`, () => {
    const der = withTbsFields(leaf.der, { subject: name });
    assert.equal(parseCertificate(der).commonName, commonName);
    const w = validateCertificatePem(encodePem('CERTIFICATE', der));
    assert.ok(w.ok, w.ok ? '' : w.error);
  });
}

// parseCertificate's order: issuer, its Name, validity, subject, its Name, then the public key.
const notSequence = smallInteger(7);
const badName = cnWith(smallInteger(5));
const ORDER: [string, Parameters<typeof withTbsFields>[1], string][] = [
  ['a bad issuer Name before a malformed validity', { issuer: badName, validity: notSequence }, `${VALUE}: unsupported string type: 2`],
  ['a malformed validity before a bad subject Name', { validity: notSequence, subject: badName }, 'x509: malformed validity'],
  ['a bad subject Name before a malformed public key', { subject: badName, spki: notSequence }, `${VALUE}: unsupported string type: 2`],
  ['an issuer Name before the subject Name', { issuer: cnWith(tlv(0x13, bytes('@'))), subject: badName }, `${VALUE}: invalid PrintableString`],
  // Go's parser says "issuer" for an unreadable subject element too.
  ['a subject that is not a SEQUENCE', { subject: notSequence }, 'x509: malformed issuer'],
  ['an issuer that is not a SEQUENCE', { issuer: notSequence }, 'x509: malformed issuer'],
];

for (const [id, swaps, message] of ORDER) {
  test(`certificate with ${id}: ${message}`, () => {
    assert.deepEqual(both(withTbsFields(leaf.der, swaps)), { wasm: message, ts: message, tsParse: message });
  });
}
