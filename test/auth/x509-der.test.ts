import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DerError, DerReader, TAG, decodeOid, decodeTime } from '../../core/authn/x509/der.js';
import { CertificateParseError, parseCertificate } from '../../core/authn/x509/certificate.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('DER reader', () => {
  it('reads short and long form lengths', () => {
    const long = Buffer.concat([hex('04 81 80'), Buffer.alloc(0x80, 1)]);
    assert.equal(new DerReader(long).expect(TAG.OCTET_STRING, 'x').content.length, 0x80);
    assert.deepEqual(new DerReader(hex('02 01 05')).read().content, hex('05'));
  });

  it('refuses indefinite, non-minimal and truncated lengths and high tags', () => {
    for (const [input, msg] of [
      ['30 80 00 00', /indefinite/],
      ['04 81 05 0102030405', /non-minimal/],
      ['04 82 0005 0102030405', /non-minimal/],
      ['04 05 0102', /truncated/],
      ['1f 01 00', /high tag/],
    ] as const) {
      assert.throws(() => new DerReader(hex(input)).read(), (e: unknown) => e instanceof DerError && msg.test(e.message), input);
    }
  });

  it('decodes object identifiers', () => {
    assert.equal(decodeOid(hex('55 04 03')), '2.5.4.3');
    assert.equal(decodeOid(hex('2b 06 01 05 05 07 03 02')), '1.3.6.1.5.5.7.3.2');
    assert.equal(decodeOid(hex('2a 86 48 86 f7 0d 01 01 0b')), '1.2.840.113549.1.1.11');
    assert.throws(() => decodeOid(hex('2a 80 01')), DerError);
    assert.throws(() => decodeOid(hex('2a 86')), DerError);
  });

  it('decodes UTCTime and GeneralizedTime strictly', () => {
    const utc = (s: string) => decodeTime({ tag: TAG.UTC_TIME, raw: Buffer.alloc(0), content: Buffer.from(s) });
    const gen = (s: string) => decodeTime({ tag: TAG.GENERALIZED_TIME, raw: Buffer.alloc(0), content: Buffer.from(s) });
    assert.equal(utc('491231235959Z'), Date.UTC(2049, 11, 31, 23, 59, 59));
    assert.equal(utc('500101000000Z'), Date.UTC(1950, 0, 1));
    assert.equal(gen('20991231000000Z'), Date.UTC(2099, 11, 31));
    for (const bad of ['4912312359Z', '491231235959+0100', '490231000000Z', '491231246000Z']) {
      assert.throws(() => utc(bad), DerError, bad);
    }
  });
});

describe('parseCertificate', () => {
  it('refuses trailing bytes and non-certificates', () => {
    assert.throws(() => parseCertificate(hex('30 00 00')), CertificateParseError);
    assert.throws(() => parseCertificate(Buffer.from('-----BEGIN CERTIFICATE-----')), /malformed certificate/);
  });
});
