// UTCTime and GeneralizedTime values in a CSR subject, as Go's ParseCertificateRequest reads them:
// encoding/asn1 decodes them into the attribute's `any` with parseUTCTime / parseGeneralizedTime
// (time.Parse with "0601021504Z0700", then "060102150405Z0700"; "20060102150405Z0700"), and refuses
// the CSR when the value does not parse or does not Format back to itself. Each case is Go's verdict
// and text, worked out from encoding/asn1 and time.Parse's source; every case runs through the WASM
// parser, the TypeScript reference and issueCertificate.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CryptoError, issueCertificate, issueCertificates, parseCsr, parseCsrTypescript } from '../../core/crypto/index.js';
import { oid, printableString, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { makeCa } from '../helpers/certs.js';
import { OIDS, craftCsr } from './csr-craft.js';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ca = makeCa();
const policy = { usages: ['digital signature', 'client auth'], notBefore: new Date(), notAfter: new Date(Date.now() + 3600e3) };
const issuer = { certificatePem: ca.certificatePem, privateKey: ca.keyObject };
const issue = (pem: string) => issueCertificate(pem, issuer, policy);
const batchError = (pem: string): string | undefined => {
  const r = issueCertificates([pem], issuer, policy)[0]!;
  return 'error' in r ? r.error.message : undefined;
};

const UTC = 0x17;
const GEN = 0x18;
const L2 = '060102150405Z0700';
const LG = '20060102150405Z0700';
const cannot = (v: string, layout: string, rest: string, elem: string) => `parsing time ${v} as "${layout}": cannot parse ${rest} as "${elem}"`;
const range = (v: string, what: string) => `parsing time ${v}: ${what} out of range`;
const roundTrip = (given: string, serialized: string) =>
  `asn1: time did not serialize back to the original value and may be invalid: given "${given}", but serialized as "${serialized}"`;

// value: the content bytes (latin1); message: Go's error, or none when Go takes the CSR.
const cases: { tag: number; value: string; message?: string }[] = [
  { tag: UTC, value: '991231235959Z' },
  { tag: UTC, value: '9912312359Z' },
  { tag: UTC, value: '9912312359-0130' },
  { tag: UTC, value: '491231235959Z' },
  { tag: UTC, value: '500101000000Z' },
  { tag: UTC, value: '000229000000Z' }, // time.Parse reads 00 as 2000, a leap year
  { tag: UTC, value: '680229000000Z' },
  { tag: UTC, value: '690229000000Z', message: range('"690229000000Z"', 'day') },
  { tag: UTC, value: '010229000000Z', message: range('"010229000000Z"', 'day') },
  { tag: UTC, value: '990431000000Z', message: range('"990431000000Z"', 'day') },
  { tag: UTC, value: '990100000000Z', message: range('"990100000000Z"', 'day') },
  { tag: UTC, value: '991301000000Z', message: range('"991301000000Z"', 'month') },
  { tag: UTC, value: '990001000000Z', message: range('"990001000000Z"', 'month') },
  { tag: UTC, value: '991231240000Z', message: range('"991231240000Z"', 'hour') },
  { tag: UTC, value: '991231236000Z', message: range('"991231236000Z"', 'minute') },
  { tag: UTC, value: '991231235960Z', message: range('"991231235960Z"', 'second') },
  { tag: UTC, value: '991231235959', message: cannot('"991231235959"', L2, '""', 'Z0700') },
  { tag: UTC, value: '', message: cannot('""', L2, '""', '06') },
  { tag: UTC, value: '99123123Z', message: cannot('"99123123Z"', L2, '"Z"', '04') },
  { tag: UTC, value: '9912312359:59Z', message: cannot('"9912312359:59Z"', L2, '":59Z"', '05') },
  { tag: UTC, value: '99123123595\xffZ', message: cannot('"99123123595\\xffZ"', L2, '"5\\xffZ"', '05') },
  { tag: UTC, value: '9912312359"9Z', message: cannot('"9912312359\\"9Z"', L2, '"\\"9Z"', '05') },
  { tag: UTC, value: '991231235959Zjunk', message: 'parsing time "991231235959Zjunk": extra text: "junk"' },
  { tag: UTC, value: '991231235959z', message: cannot('"991231235959z"', L2, '"z"', 'Z0700') },
  { tag: UTC, value: '991231235959+0000', message: roundTrip('991231235959+0000', '991231235959Z') },
  { tag: UTC, value: '991231235959-0000', message: roundTrip('991231235959-0000', '991231235959Z') },
  { tag: UTC, value: '991231235959+2400' }, // Parse allows an offset of 24 hours; Format writes it back
  { tag: UTC, value: '991231235959+2500', message: range('"991231235959+2500"', 'time zone offset hour') },
  { tag: UTC, value: '991231235959+0160', message: roundTrip('991231235959+0160', '991231235959+0200') },
  { tag: UTC, value: '991231235959+0161', message: range('"991231235959+0161"', 'time zone offset minute') },
  { tag: UTC, value: '991231235959*0100', message: cannot('"991231235959*0100"', L2, '"*0100"', 'Z0700') },
  { tag: UTC, value: '991231235959.5Z', message: roundTrip('991231235959.5Z', '991231235959Z') },
  { tag: UTC, value: '-91231235959Z', message: roundTrip('-91231235959Z', '911231235959Z') }, // atoi takes a sign
  { tag: UTC, value: '9912312359+0000', message: roundTrip('9912312359+0000', '9912312359Z') }, // layout without seconds
  { tag: UTC, value: '9912312359', message: cannot('"9912312359"', L2, '""', '05') },
  { tag: GEN, value: '20991231235959Z' },
  { tag: GEN, value: '19500101000000+0530' },
  { tag: GEN, value: '00000101000000Z' },
  { tag: GEN, value: '20240229000000Z' },
  { tag: GEN, value: '21000229000000Z', message: range('"21000229000000Z"', 'day') },
  { tag: GEN, value: '20991231235959.123Z', message: roundTrip('20991231235959.123Z', '20991231235959Z') },
  { tag: GEN, value: '209912312359Z', message: cannot('"209912312359Z"', LG, '"Z"', '05') },
  { tag: GEN, value: '991231235959Z', message: range('"991231235959Z"', 'month') }, // read as 9912-31-...
  { tag: GEN, value: '20991231235959', message: cannot('"20991231235959"', LG, '""', 'Z0700') },
  { tag: GEN, value: '+0991231235959Z', message: cannot('"+0991231235959Z"', LG, '"+0991231235959Z"', '2006') },
  { tag: GEN, value: '2+991231235959Z', message: cannot('"2+991231235959Z"', LG, '"2+991231235959Z"', '2006') },
  { tag: GEN, value: '20991231235959-0000', message: roundTrip('20991231235959-0000', '20991231235959Z') },
  { tag: GEN, value: '20991331235959Z', message: range('"20991331235959Z"', 'month') },
  { tag: GEN, value: '20991231235960Z', message: range('"20991231235960Z"', 'second') },
];

function subjectWith(value: Uint8Array): Uint8Array {
  return seq(setOf(seq(oid('2.5.4.45'), value)), setOf(seq(oid(OIDS.cn), printableString('x'))));
}

for (const c of cases) {
  const kind = c.tag === UTC ? 'UTCTime' : 'GeneralizedTime';
  test(`CSR subject ${kind} ${JSON.stringify(c.value)}: ${c.message ?? 'accepted, as by Go'}`, () => {
    const pem = craftCsr({ key: privateKey, subject: subjectWith(tlv(c.tag, Buffer.from(c.value, 'latin1'))) });
    if (c.message === undefined) {
      for (const parse of [parseCsr, parseCsrTypescript]) assert.equal(parse(pem).commonName, 'x', parse.name);
      issue(pem);
      assert.equal(batchError(pem), undefined);
      return;
    }
    for (const parse of [parseCsr, parseCsrTypescript]) {
      assert.throws(() => parse(pem), (e: unknown) => e instanceof CryptoError && e.message === c.message, parse.name);
    }
    assert.throws(() => issue(pem), (e: unknown) => e instanceof CryptoError && e.message === c.message);
    assert.equal(batchError(pem), c.message, 'issueCertificates');
  });
}

// encoding/asn1 leaves every other value nil: a BOOLEAN that is not DER, a NULL with content, an
// ENUMERATED, a constructed or context-tagged time are all taken.
const undecoded: { id: string; value: number[] }[] = [
  { id: 'BOOLEAN 0x01', value: [0x01, 0x01, 0x01] },
  { id: 'empty BOOLEAN', value: [0x01, 0x00] },
  { id: 'NULL with content', value: [0x05, 0x01, 0x00] },
  { id: 'empty ENUMERATED', value: [0x0a, 0x00] },
  { id: 'constructed UTCTime', value: [0x37, 0x00] },
  { id: 'context-specific [23]', value: [0x97, 0x01, 0x41] },
];
for (const c of undecoded) {
  test(`CSR subject value ${c.id}: accepted, as by Go`, () => {
    const pem = craftCsr({ key: privateKey, subject: subjectWith(Uint8Array.from(c.value)) });
    for (const parse of [parseCsr, parseCsrTypescript]) assert.equal(parse(pem).commonName, 'x', parse.name);
  });
}

// The WASM module decides by the canonical form, the TypeScript reference by following time.Parse
// and Format; over near-miss values both must give one verdict and one text.
test('UTCTime and GeneralizedTime near misses: both parsers agree', () => {
  const seeds = ['991231235959Z', '9912312359Z', '20240229235959Z', '000229000000+2400', '20991231235959-0130'];
  const alphabet = '0159Z+-.:';
  let state = 7;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const values = new Set<string>();
  for (const seed of seeds) {
    for (let i = 0; i <= seed.length; i++) {
      values.add(seed.slice(0, i) + seed.slice(i + 1));
      for (const ch of alphabet) values.add(seed.slice(0, i) + ch + seed.slice(i + 1));
    }
  }
  for (let i = 0; i < 100; i++) {
    const seed = seeds[next(seeds.length)]!;
    const at = next(seed.length);
    values.add(seed.slice(0, at) + alphabet[next(alphabet.length)]! + seed.slice(at + 1, at + 1 + next(3)) + seed.slice(at + 3));
  }
  let refused = 0;
  for (const value of values) {
    for (const tag of [UTC, GEN]) {
      const pem = craftCsr({ key: privateKey, subject: subjectWith(tlv(tag, Buffer.from(value, 'latin1'))) });
      const outcome = (parse: typeof parseCsr): string => {
        try {
          return `ok ${parse(pem).commonName}`;
        } catch (e) {
          return (e as Error).message;
        }
      };
      const wasm = outcome(parseCsr);
      assert.equal(wasm, outcome(parseCsrTypescript), `${tag === UTC ? 'UTCTime' : 'GeneralizedTime'} ${JSON.stringify(value)}`);
      if (!wasm.startsWith('ok')) refused++;
    }
  }
  assert.ok(refused > 0 && refused < values.size * 2, `${refused} of ${values.size * 2} refused`);
});
