// A GeneralizedTime in a CSR subject with a very long fractional second: time.Parse reads any
// number of fraction digits (parseNanoseconds keeps ten), so the value parses and only the round
// trip refuses it, quoting the whole value. Plat once built that quote by spreading the bytes into
// String.fromCharCode, which overflows the stack past ~100k bytes: a RangeError, not Go's error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CryptoError, parseCsr, parseCsrTypescript } from '../../core/crypto/index.js';
import { oid, printableString, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { OIDS, craftCsr } from './csr-craft.js';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

test('CSR subject GeneralizedTime with a 200000-digit fraction: Go\'s round-trip error, no crash', () => {
  const value = `20240101000000.${'0'.repeat(200_000)}Z`;
  const time = tlv(0x18, Buffer.from(value, 'latin1'));
  const subject = seq(setOf(seq(oid('2.5.4.45'), time)), setOf(seq(oid(OIDS.cn), printableString('x'))));
  const pem = craftCsr({ key: privateKey, subject });
  const message = `asn1: time did not serialize back to the original value and may be invalid: given "${value}", but serialized as "20240101000000Z"`;
  for (const parse of [parseCsr, parseCsrTypescript]) {
    assert.throws(() => parse(pem), (e: unknown) => e instanceof CryptoError && e.message === message, parse.name);
  }
});
