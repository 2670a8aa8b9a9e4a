// T61String subject values: what plat reads must be what it issues. Go 1.23 reads a T61String as
// string(bytes) (encoding/asn1 parseT61String for CSRs, crypto/x509 parseASN1String for
// certificates), and the signer re-marshals that Go string as a UTF8String, or fails with
// "asn1: string not valid UTF-8". Plat read the bytes as Latin-1, so T61 "system:node:" C3 A9
// was "system:node:Ã©" to the approvers and admission, and "system:node:é" in the certificate.
// Both CSR parsers (TypeScript reference and WASM), both certificate parsers, and both issuing paths.
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { issueCertificate, issueCertificates, parseCertificate, parseCsrTypescript, type IssuePolicy, type IssuingCa } from '../../core/crypto/index.js';
import { wasmParseCsr } from '../../core/crypto/wasm/parse.js';
import { parseCertificate as parseClientCertificate } from '../../core/authn/x509/certificate.js';
import { oid, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { opensslCa } from '../helpers/openssl.js';
import { craftCsr, OIDS } from './csr-craft.js';
import { withTbsFields } from './cert-craft.js';

const O = '2.5.4.10';

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const text = (s: string): number[] => [...Buffer.from(s, 'latin1')];
const t61Cn = (b: number[]): Uint8Array => seq(setOf(seq(oid(OIDS.cn), tlv(0x14, Uint8Array.from(b)))));

// [what, the T61String's bytes, the string Go 1.23 holds (bytes not UTF-8 as U+DC80+byte), whether Go issues it]
const CASES: [string, number[], string, boolean][] = [
  ['a node name with UTF-8 bytes', [...text('system:node:'), 0xc3, 0xa9], 'system:node:\u00e9', true],
  ['ASCII only', text('system:node:worker-1'), 'system:node:worker-1', true],
  ['a 4-byte UTF-8 character', [0x61, 0xf0, 0x9f, 0x98, 0x80], 'a\u{1f600}', true],
  ['a leading BOM (kept, as Go keeps it)', [0xef, 0xbb, 0xbf, 0x61], '\ufeffa', true],
  ['Latin-1 é (not UTF-8)', [...text('caf'), 0xe9], 'caf\udce9', false],
  ['UTF-8 then a stray byte', [0x61, 0xc3, 0xa9, 0xff], 'a\u00e9\udcff', false],
  ['a lead byte before ASCII', [0xc3, 0x41], '\udcc3A', false],
  ['an encoded surrogate (not UTF-8)', [0xed, 0xa0, 0x80], '\udced\udca0\udc80', false],
  ['a truncated sequence', [0x61, 0xe2, 0x82], 'a\udce2\udc82', false],
  ['an overlong encoding', [0xc0, 0xaf], '\udcc0\udcaf', false],
];

const now = Date.now();
const policy: IssuePolicy = { usages: ['digital signature', 'client auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + 3600_000) };
const caPair = opensslCa('/CN=t61-ca', 'ec-p256', { ski: 'hash' });
const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };

describe('T61String in a CSR subject: read as Go 1.23 reads it, by both parsers', () => {
  for (const [what, bytes, want] of CASES) {
    it(what, () => {
      const pem = craftCsr({ key, subject: t61Cn(bytes) });
      assert.equal(parseCsrTypescript(pem).commonName, want, 'TypeScript');
      assert.equal(wasmParseCsr(pem).commonName, want, 'WASM');
      assert.equal(parseCsrTypescript(pem).subject[0]![0]!.value, want);
    });
  }

  it('different bytes never read alike, and never as their Latin-1 letters', () => {
    const read = CASES.map(([, b]) => parseCsrTypescript(craftCsr({ key, subject: t61Cn(b) })).commonName);
    assert.equal(new Set(read).size, read.length);
    // The confusion of the old reading: C3 A9 is not "Ã©", and E9 is not "é" (the UTF-8 C3 A9 is).
    assert.notEqual(read[0], 'system:node:\u00c3\u00a9');
    assert.notEqual(read[4], 'caf\u00e9');
    // A UTF8String of the same text reads the same as the T61String of its bytes.
    const utf8 = seq(setOf(seq(oid(OIDS.cn), tlv(0x0c, Buffer.from('system:node:\u00e9', 'utf8')))));
    assert.equal(wasmParseCsr(craftCsr({ key, subject: utf8 })).commonName, read[0]);
  });
});

describe('T61String in a CSR subject: the issued certificate names what was read', () => {
  for (const [what, bytes, want, issued] of CASES) {
    it(`${what}: ${issued ? 'issued with the same CN' : 'not issued (Go: asn1: string not valid UTF-8)'}`, () => {
      const pem = craftCsr({ key, subject: t61Cn(bytes) });
      const read = wasmParseCsr(pem).commonName;
      assert.equal(read, want);
      const results = [(() => {
        try {
          return issueCertificate(pem, ca, policy);
        } catch (e) {
          return { error: e as Error };
        }
      })(), ...issueCertificates([pem], ca, policy)];
      for (const r of results) {
        if (!issued) {
          assert.ok('error' in r);
          assert.equal(r.error.message, 'asn1: string not valid UTF-8');
          continue;
        }
        assert.ok(!('error' in r), 'error' in r ? r.error.message : '');
        // node:crypto (OpenSSL) reads the issued subject on its own.
        assert.equal(new X509Certificate(r.certificatePem).subject, `CN=${read}`);
        assert.equal(parseCertificate(r.certificatePem).commonName, read);
      }
    });
  }
});

describe('T61String in a certificate subject: read as Go 1.23\'s crypto/x509 reads it', () => {
  const base = Buffer.from(caPair.certPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  for (const [what, bytes, want] of CASES) {
    it(what, () => {
      const t61 = tlv(0x14, Uint8Array.from(bytes));
      const cert = withTbsFields(base, { subject: seq(setOf(seq(oid(O), t61)), setOf(seq(oid(OIDS.cn), t61))) });
      // The parser behind client certificates (core/authn/x509), and core/crypto's.
      const client = parseClientCertificate(Buffer.from(cert));
      assert.equal(client.commonName, want);
      assert.deepEqual(client.organizations, [want]);
      assert.equal(parseCertificate(cert).commonName, want);
    });
  }
});
