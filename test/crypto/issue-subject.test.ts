// The subject of an issued certificate, as upstream writes it: its signer's template takes the
// CSR's parsed pkix.Name, and x509.CreateCertificate marshals that Name again
// (pkix.Name.ToRDNSequence + encoding/asn1), so the certificate's subject is not the CSR's bytes:
//  - only string values of C, ST, L, street, postalCode, O, OU, CN and serialNumber, in that
//    order (golang/go src/crypto/x509/pkix/pkix.go; k8s-behaviour.md §4.3 lists another order,
//    which is not Go's); emailAddress, UID, DC and non-string values are dropped;
//  - CN and serialNumber: the last value wins, an empty one is left out;
//  - all values of one type form one RDN, its members sorted by their DER encodings;
//  - PrintableString when every character is in Go's marshalling set (no '*', no '&'), else
//    UTF8String; BMPString decoded from UTF-16; a value that is not UTF-8 fails the signing.
// And the authorityKeyIdentifier is left out when that subject equals the CA's subject bytes.
// Both issuing paths (issueCertificate, and the WASM batch behind issueCertificates), byte-exact.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createCertificate, issueCertificate, issueCertificates, parseCertificate, type IssuePolicy, type IssuingCa,
} from '../../core/crypto/index.js';
import { openssl, opensslCa, opensslCsr } from '../helpers/openssl.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// A minimal DER writer of its own, so expectations do not come from the code under test.
function tlv(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return new Uint8Array([tag, ...len, ...content]);
}
const cat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

const TYPES = { CN: 3, serialNumber: 5, C: 6, L: 7, ST: 8, street: 9, O: 10, OU: 11, postalCode: 17, UID: -1 } as const;
type AttrType = keyof typeof TYPES;
const PS = 0x13, UTF8 = 0x0c, IA5 = 0x16, NUMERIC = 0x12, T61 = 0x14, BMP = 0x1e, INTEGER = 0x02;
/** [type, value tag, value: text (latin1 for PS/IA5/T61/Numeric, UTF-8 for UTF8) or raw bytes]. */
type Atv = readonly [AttrType, number, string | Uint8Array];

function valueBytes(tag: number, v: string | Uint8Array): Uint8Array {
  if (typeof v !== 'string') return v;
  if (tag === BMP) return new Uint8Array(Buffer.from(v, 'utf16le').swap16());
  return new Uint8Array(Buffer.from(v, tag === UTF8 ? 'utf8' : 'latin1'));
}
function atv([type, tag, v]: Atv): Uint8Array {
  const oid = type === 'UID' ? new Uint8Array([0x09, 0x92, 0x26, 0x89, 0x93, 0xf2, 0x2c, 0x64, 0x01, 0x01]) : new Uint8Array([0x55, 0x04, TYPES[type]]);
  return tlv(0x30, cat(tlv(0x06, oid), tlv(tag, valueBytes(tag, v))));
}
/** A Name: RDNs as given, each RDN's members in the order given (no sorting here). */
const name = (rdns: ReadonlyArray<readonly Atv[]>): Uint8Array => tlv(0x30, cat(...rdns.map((r) => tlv(0x31, cat(...r.map(atv))))));

const ALG_ECDSA_SHA256 = new Uint8Array([0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]);
const ALG_ED25519 = new Uint8Array([0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70]);

/** A PKCS#10 request with exactly this subject Name DER (openssl cannot write most of these). */
function csrWithSubject(subject: Uint8Array, key: KeyObject): string {
  const ed = key.asymmetricKeyType === 'ed25519';
  const spki = new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }));
  const info = tlv(0x30, cat(new Uint8Array([0x02, 0x01, 0x00]), subject, spki, new Uint8Array([0xa0, 0x00])));
  const sig = new Uint8Array(sign(ed ? null : 'sha256', info, key));
  const der = tlv(0x30, cat(info, ed ? ALG_ED25519 : ALG_ECDSA_SHA256, tlv(0x03, cat(new Uint8Array([0]), sig))));
  return `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}

const now = Date.now();
const policy: IssuePolicy = { usages: ['digital signature', 'client auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + 3600_000) };
const utf16 = (...units: number[]): Uint8Array => new Uint8Array(units.flatMap((u) => [u >> 8, u & 0xff]));

interface Case {
  name: string;
  /** The CSR's subject: an openssl -subj string, or RDNs written as given. */
  subject: string | ReadonlyArray<readonly Atv[]>;
  /** The certificate's subject, RDN members in the order they must appear. */
  want: ReadonlyArray<readonly Atv[]>;
}

const CASES: readonly Case[] = [
  { name: 'openssl CSR, CN before O, UTF8String values', subject: '/CN=alice/O=dev', want: [[['O', PS, 'dev']], [['CN', PS, 'alice']]] },
  {
    name: 'every kept attribute, written in reverse: Go\'s order C, ST, L, street, postalCode, O, OU, CN, serialNumber',
    subject: '/serialNumber=42/CN=c/OU=u/O=o/postalCode=12345/street=Main St/L=Town/ST=State/C=DE',
    want: [[['C', PS, 'DE']], [['ST', PS, 'State']], [['L', PS, 'Town']], [['street', PS, 'Main St']], [['postalCode', PS, '12345']],
      [['O', PS, 'o']], [['OU', PS, 'u']], [['CN', PS, 'c']], [['serialNumber', PS, '42']]],
  },
  { name: 'emailAddress, UID and DC are dropped', subject: '/DC=example/UID=u1/CN=a/emailAddress=a@b.c', want: [[['CN', PS, 'a']]] },
  {
    name: 'values of one type form one RDN, sorted by encoding (shorter first, then tag, then bytes)',
    subject: [[['O', UTF8, 'zeta']], [['OU', PS, 'b'], ['OU', PS, 'a']], [['O', UTF8, 'alpha'], ['CN', PS, 'x']], [['O', PS, 'ab'], ['O', UTF8, 'z*']]],
    want: [[['O', UTF8, 'z*'], ['O', PS, 'ab'], ['O', PS, 'zeta'], ['O', PS, 'alpha']], [['OU', PS, 'a'], ['OU', PS, 'b']], [['CN', PS, 'x']]],
  },
  {
    name: 'CN and serialNumber: the last value wins',
    subject: [[['CN', PS, 'first']], [['serialNumber', PS, '1']], [['CN', UTF8, 'second']], [['serialNumber', PS, '2']]],
    want: [[['CN', PS, 'second']], [['serialNumber', PS, '2']]],
  },
  {
    name: 'an empty last CN leaves no CN; an empty O stays',
    subject: [[['CN', PS, 'x']], [['O', PS, '']], [['CN', PS, '']]],
    want: [[['O', PS, '']]],
  },
  {
    name: 'string types: Go\'s choice of PrintableString or UTF8String',
    subject: [
      [['CN', PS, 'a*b']], [['O', IA5, 'ia5 & co']], [['OU', NUMERIC, '123 4']], [['L', T61, 'town']], [['ST', BMP, 'Zoë']],
      [['street', BMP, utf16(0x61, 0x62, 0x63, 0)]], [['postalCode', UTF8, 'café']], [['C', BMP, utf16(0xd83d, 0xde00, 0xd800, 0x41)]],
    ],
    want: [
      [['C', UTF8, '😀\ufffdA']], [['ST', UTF8, 'Zoë']], [['L', PS, 'town']], [['street', PS, 'abc']], [['postalCode', UTF8, 'café']],
      [['O', UTF8, 'ia5 & co']], [['OU', PS, '123 4']], [['CN', UTF8, 'a*b']],
    ],
  },
  {
    name: 'non-string values and unknown types are dropped',
    subject: [[['CN', INTEGER, new Uint8Array([5])]], [['UID', UTF8, 'u']], [['O', PS, 'o']]],
    want: [[['O', PS, 'o']]],
  },
];

const KEYS = { 'ec-p256': generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, ed25519: generateKeyPairSync('ed25519').privateKey };

function csrFor(c: Case, keyType: keyof typeof KEYS): string {
  if (typeof c.subject !== 'string') return csrWithSubject(name(c.subject), KEYS[keyType]);
  return opensslCsr({ keyType, subject: c.subject, keyPem: KEYS[keyType].export({ type: 'pkcs8', format: 'pem' }) as string }).csrPem;
}

describe('issued subject: the CSR\'s Name as Go marshals the parsed pkix.Name', () => {
  const requests = CASES.flatMap((c) => (['ec-p256', 'ed25519'] as const).map((keyType) => ({ c, keyType, pem: csrFor(c, keyType) })));
  for (const caKey of ['ec-p256', 'rsa-2048'] as const) {
    const caPair = opensslCa(`/CN=subject-ca-${caKey}`, caKey, { ski: 'hash' });
    const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };
    for (const path of ['issueCertificate', 'issueCertificates'] as const) {
      it(`${caKey} CA, ${path}`, () => {
        const pems = requests.map((r) => r.pem);
        const out = path === 'issueCertificate' ? pems.map((p) => issueCertificate(p, ca, policy)) : issueCertificates(pems, ca, policy);
        out.forEach((r, i) => {
          const what = `${requests[i]!.c.name} (${requests[i]!.keyType} CSR)`;
          assert.ok(!('error' in r), `${what}: ${'error' in r ? r.error.message : ''}`);
          if (path === 'issueCertificates' && caKey === 'ec-p256') assert.equal(r.backend.sign, 'wasm', `${what}: the WASM batch`);
          assert.equal(hex(parseCertificate(r.certificatePem).rawSubject), hex(name(requests[i]!.c.want)), what);
          assert.ok(new X509Certificate(r.certificatePem).verify(new X509Certificate(caPair.certPem).publicKey), what);
        });
      });
    }
  }

  it('nothing kept: the subject is empty and the SAN critical, as RFC 5280 and Go want', () => {
    const caPair = opensslCa('/CN=empty-ca', 'ec-p256', { ski: 'hash' });
    const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };
    const pem = opensslCsr({ subject: '/emailAddress=a@b.c', sans: ['DNS:only.example'] }).csrPem;
    for (const r of [issueCertificate(pem, ca, policy), ...issueCertificates([pem], ca, policy)]) {
      assert.ok(!('error' in r));
      const cert = parseCertificate(r.certificatePem);
      assert.equal(hex(cert.rawSubject), '3000');
      assert.equal(cert.extensions.find((e) => e.oid === '2.5.29.17')?.critical, true);
      assert.match(openssl(['x509', '-noout', '-ext', 'subjectAltName'], { input: r.certificatePem }), /critical/);
    }
  });

  it('a value that is not UTF-8 (T61String bytes) fails the signing, in both paths', () => {
    const caPair = opensslCa('/CN=t61-ca', 'ec-p256', { ski: 'hash' });
    const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };
    const pem = csrWithSubject(name([[['CN', T61, new Uint8Array([0x63, 0x61, 0x66, 0xe9])]]]), KEYS['ec-p256']);
    // asn1.Marshal's text, which CreateCertificate returns unwrapped (no "x509: ").
    assert.throws(() => issueCertificate(pem, ca, policy), { name: 'CryptoError', message: 'asn1: string not valid UTF-8' });
    const [r] = issueCertificates([pem], ca, policy);
    assert.ok(r !== undefined && 'error' in r);
    assert.equal(r.error.message, 'asn1: string not valid UTF-8');
  });
});

describe('issued authorityKeyIdentifier: left out when the subject equals the CA\'s', () => {
  // A CA whose subject is written as Go writes names (PrintableString, O before CN).
  const caKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const caPem = createCertificate({
    template: { subject: { organizations: ['o'], commonName: 'ca' }, notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000), isCA: true, keyUsage: ['cert sign'] },
    publicKey: caKey, signer: caKey,
  }).certificatePem;
  const goCa: IssuingCa = { certificatePem: caPem, privateKey: caKey };
  // The same words from openssl: UTF8String values, so the bytes differ.
  const osslPair = opensslCa('/O=o/CN=ca', 'ec-p256', { ski: 'hash' });
  const osslCa: IssuingCa = { certificatePem: osslPair.certPem, privateKey: osslPair.keyPem };
  const caSki = (pem: string): string => hex(parseCertificate(pem).subjectKeyId ?? new Uint8Array(0));
  const aki = (pem: string): string | undefined => {
    const e = parseCertificate(pem).extensions.find((x) => x.oid === '2.5.29.35');
    return e === undefined ? undefined : hex(e.value).slice(8); // 30 16 80 14 <20 bytes>
  };

  const TABLE = [
    { name: 'CSR /CN=ca/O=o re-marshals to the Go CA\'s subject: no AKI', ca: goCa, subject: '/CN=ca/O=o', aki: false },
    { name: 'another CN: AKI = the CA\'s SKI', ca: goCa, subject: '/O=o/CN=cb', aki: true },
    { name: 'openssl CA /O=o/CN=ca (UTF8String): the re-marshalled subject differs, AKI kept', ca: osslCa, subject: '/O=o/CN=ca', aki: true },
  ];
  for (const t of TABLE) {
    it(t.name, () => {
      const pem = opensslCsr({ subject: t.subject }).csrPem;
      for (const r of [issueCertificate(pem, t.ca, policy), ...issueCertificates([pem], t.ca, policy)]) {
        assert.ok(!('error' in r));
        assert.equal(aki(r.certificatePem), t.aki ? caSki(t.ca.certificatePem) : undefined);
        assert.equal(new X509Certificate(r.certificatePem).verify(new X509Certificate(t.ca.certificatePem).publicKey), true);
      }
    });
  }
});
