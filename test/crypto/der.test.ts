// The strict DER reader and the writer, against hand-made vectors; failures name the vector.
import test from 'node:test';
import assert from 'node:assert/strict';
import { CryptoError } from '../../core/crypto/index.js';
import { DerReader, decodeBitString, decodeInteger, decodeOid, decodeTime, readTlv, TAG } from '../../core/crypto/der.js';
import { oid, setOf, smallInteger, time, tlv, unsignedInteger, utf8String, printableString } from '../../core/crypto/der-write.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s.replace(/\s/g, ''), 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const badTlv: { id: string; der: string; message: string }[] = [
  { id: 'empty', der: '', message: 'asn1: syntax error: data truncated' },
  { id: 'indefinite length', der: '3080 0000', message: 'asn1: syntax error: indefinite length found (not DER)' },
  { id: 'long form for short length', der: '30 81 05 0000000000', message: 'asn1: structure error: non-minimal length' },
  { id: 'leading zero in length', der: '30 82 0005 0000000000', message: 'asn1: structure error: superfluous leading zeros in length' },
  { id: 'content past end', der: '30 05 0000', message: 'asn1: syntax error: data truncated' },
  { id: 'missing length', der: '30', message: 'asn1: syntax error: truncated tag or length' },
  { id: 'high tag written long for a low number', der: '1f 05 00', message: 'asn1: syntax error: non-minimal tag' },
  { id: 'high tag number cut short', der: '1f 81', message: 'asn1: syntax error: truncated base 128 integer' },
  { id: 'high tag number over int32', der: '1f 88 80 80 80 00 00', message: 'asn1: structure error: base 128 integer too large' },
];

for (const v of badTlv) {
  test(`readTlv rejects vector ${v.id}`, () => {
    assert.throws(() => readTlv(hex(v.der), 0), (e: unknown) => e instanceof CryptoError && e.message === v.message, `vector ${v.id}`);
  });
}

test('readTlv reads long lengths and high tag numbers', () => {
  const long = new Uint8Array(3 + 200);
  long.set([0x04, 0x81, 200]);
  const t = readTlv(long, 0);
  assert.deepEqual([t.contentStart, t.end], [3, 203]);
  const high = readTlv(hex('9f 20 01 ff'), 0);
  assert.deepEqual([high.cls, high.num, high.end], [2, 32, 4]);
  // Five base-128 bytes are allowed when the value fits an int32.
  const five = readTlv(hex('1f 87 ff ff ff 7f 00'), 0);
  assert.equal(five.num, 0x7fffffff);
});

test('integers: minimal encoding, sign', () => {
  assert.equal(decodeInteger(hex('00ff')), 255n);
  assert.equal(decodeInteger(hex('ff')), -1n);
  assert.equal(decodeInteger(hex('0100')), 256n);
  assert.throws(() => decodeInteger(hex('0001')), { message: 'asn1: structure error: integer not minimally-encoded' });
  assert.throws(() => decodeInteger(hex('ff80')), { message: 'asn1: structure error: integer not minimally-encoded' });
  assert.throws(() => decodeInteger(hex('')), { message: 'asn1: structure error: empty integer' });
});

test('OIDs decode and encode', () => {
  assert.equal(decodeOid(hex('2a864886f70d01010b')), '1.2.840.113549.1.1.11');
  assert.equal(decodeOid(hex('550403')), '2.5.4.3');
  assert.equal(toHex(oid('1.2.840.10045.3.1.7')), '06082a8648ce3d030107');
  assert.equal(toHex(oid('2.999.3')), '0603883703');
  assert.equal(decodeOid(hex('883703')), '2.999.3');
  assert.throws(() => decodeOid(hex('2a86')), { message: 'asn1: syntax error: truncated base 128 integer' });
  assert.throws(() => decodeOid(hex('8001')), { message: 'asn1: syntax error: integer is not minimally encoded' });
  assert.throws(() => oid('1.40'), RangeError);
});

test('BIT STRING padding rules', () => {
  assert.deepEqual(decodeBitString(hex('0680')), { bytes: hex('80'), unusedBits: 6 });
  assert.throws(() => decodeBitString(hex('')), { message: 'asn1: syntax error: zero length BIT STRING' });
  assert.throws(() => decodeBitString(hex('0181')), { message: 'asn1: syntax error: invalid padding bits in BIT STRING' });
  assert.throws(() => decodeBitString(hex('01')), { message: 'asn1: syntax error: invalid padding bits in BIT STRING' });
  assert.throws(() => decodeBitString(hex('08ff')), { message: 'asn1: syntax error: invalid padding bits in BIT STRING' });
});

test('writer: minimal lengths', () => {
  assert.equal(toHex(tlv(0x04, new Uint8Array(127))).slice(0, 4), '047f');
  assert.equal(toHex(tlv(0x04, new Uint8Array(128))).slice(0, 6), '048180');
  assert.equal(toHex(tlv(0x04, new Uint8Array(256))).slice(0, 8), '04820100');
  assert.equal(toHex(tlv(0x04, new Uint8Array(65536))).slice(0, 10), '0483010000');
});

test('writer: positive INTEGERs get a leading zero only when needed', () => {
  assert.equal(toHex(unsignedInteger(hex('7f'))), '02017f');
  assert.equal(toHex(unsignedInteger(hex('80'))), '02020080');
  assert.equal(toHex(unsignedInteger(hex('0000ff'))), '020200ff');
  assert.equal(toHex(unsignedInteger(hex('00'))), '020100');
  assert.equal(toHex(smallInteger(0)), '020100');
  assert.equal(toHex(smallInteger(65537)), '0203010001');
});

test('writer: UTCTime before 2050, GeneralizedTime from 2050 and before 1950', () => {
  assert.equal(Buffer.from(time(new Date('2049-12-31T23:59:59.999Z'))).toString('latin1').slice(2), '491231235959Z');
  assert.equal(time(new Date('2049-12-31T23:59:59Z'))[0], TAG.UTCTime);
  assert.equal(time(new Date('2050-01-01T00:00:00Z'))[0], TAG.GeneralizedTime);
  assert.equal(Buffer.from(time(new Date('2050-01-01T00:00:00Z'))).toString('latin1').slice(2), '20500101000000Z');
  assert.equal(time(new Date('1949-06-01T00:00:00Z'))[0], TAG.GeneralizedTime);
  const round = (d: string): string => {
    const enc = time(new Date(d));
    const t = readTlv(enc, 0);
    return decodeTime(enc[0]!, enc.subarray(t.contentStart)).toISOString();
  };
  assert.equal(round('2030-02-03T04:05:06Z'), '2030-02-03T04:05:06.000Z');
  assert.equal(round('2071-02-03T04:05:06Z'), '2071-02-03T04:05:06.000Z');
  assert.equal(round('1960-02-03T04:05:06Z'), '1960-02-03T04:05:06.000Z');
});

test('writer: SET OF is sorted, strings typed', () => {
  assert.equal(toHex(setOf(hex('0401ff'), hex('040100'), hex('0400'))), '3108' + '0400' + '040100' + '0401ff');
  assert.equal(utf8String('é')[0], TAG.UTF8String);
  assert.throws(() => printableString('é'), RangeError);
});

test('DerReader: expect, optional, finish', () => {
  const der = hex('3006 020101 0101ff');
  const r = new DerReader(der);
  const seq = r.inner(r.expect(TAG.SEQUENCE, 'x'));
  assert.equal(seq.optional(TAG.BOOLEAN), undefined);
  assert.equal(decodeInteger(seq.content(seq.expect(TAG.INTEGER, 'int'))), 1n);
  assert.throws(() => seq.finish('x'), { message: 'asn1: syntax error: trailing data in x' });
  assert.throws(
    () => new DerReader(hex('020101')).expect(TAG.SEQUENCE, 'certificateRequest'),
    (e: unknown) => e instanceof CryptoError && e.message.startsWith("asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 isCompound:false})"),
  );
  assert.throws(() => new DerReader(hex('')).next(), { message: 'asn1: syntax error: sequence truncated' });
});
