// The WASM X.509 builder (wasm/assembly/x509.ts via core/crypto/wasm/x509.ts) checked three ways:
// byte-for-byte against the TypeScript builder (createCertificate) over randomised templates, by
// openssl verify / openssl x509 -text, and by node's X509Certificate.
import test from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPublicKey, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { parseCertificate } from '../../core/crypto/certificate.js';
import { readTlv } from '../../core/crypto/der.js';
import { encodeSubjectAltNames } from '../../core/crypto/general-names.js';
import { generateKeyPair, spkiOf, type KeyType } from '../../core/crypto/keys.js';
import { encodeName } from '../../core/crypto/names.js';
import { encodePem } from '../../core/crypto/pem.js';
import { signWithKey } from '../../core/crypto/signature.js';
import { EXT_KEY_USAGE_OIDS, KEY_USAGE_BITS } from '../../core/crypto/usages.js';
import { createCertificate, type CertificateTemplate } from '../../core/crypto/x509-build.js';
import {
  wasmAssembleCertificate, wasmBuildTbs, wasmPemEncodeCertificate, wasmSigAlgFor, type WasmTbsOptions,
} from '../../core/crypto/wasm/x509.js';
import { makeCa } from '../helpers/certs.js';
import { opensslCertText, opensslVerify } from '../helpers/openssl.js';

const HOUR = 3_600_000;
const now = new Date();

// Deterministic randomness so a failing case can be replayed from its seed and index.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The TBSCertificate inside a Certificate DER. */
function tbsOf(der: Uint8Array): Uint8Array {
  const outer = readTlv(der, 0);
  const t = readTlv(der, outer.contentStart);
  return der.subarray(t.start, t.end);
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

function contains(hay: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(hay).includes(Buffer.from(needle));
}

interface Ca { certificatePem: string; keyObject: KeyObject; nameDer: Uint8Array; ski: Uint8Array; publicKey: KeyObject }

function ca(keyType: KeyType): Ca {
  const c = makeCa({ commonName: `wasm-x509 ${keyType} CA`, keyType });
  const parsed = parseCertificate(c.certificatePem);
  assert.ok(parsed.subjectKeyId);
  return { certificatePem: c.certificatePem, keyObject: c.keyObject, nameDer: parsed.rawSubject, ski: parsed.subjectKeyId, publicKey: createPublicKey(c.keyObject) };
}

const CAS: Record<string, Ca> = {
  p256: ca('ecdsa-p256'),
  ed25519: ca('ed25519'),
  rsa: ca('rsa-2048'),
  p384: ca('ecdsa-p384'),
};

/** WASM TBS, signed with node:crypto, assembled in WASM. */
function wasmIssue(issuer: Ca, template: Omit<WasmTbsOptions, 'issuerNameDer' | 'sigAlg' | 'issuerSki'>): { der: Uint8Array; pem: string } {
  const sigAlg = wasmSigAlgFor(issuer.keyObject);
  const tbs = wasmBuildTbs({ ...template, issuerNameDer: issuer.nameDer, issuerSki: issuer.ski, sigAlg });
  const der = wasmAssembleCertificate(tbs, sigAlg, signWithKey(issuer.keyObject, tbs));
  return { der, pem: wasmPemEncodeCertificate(der) };
}

for (const [name, issuer] of Object.entries(CAS)) {
  test(`${name} CA: a WASM-built leaf passes openssl verify, openssl -text and X509Certificate.verify`, () => {
    const leafKey = generateKeyPair('ecdsa-p256').keyObject;
    const { der, pem } = wasmIssue(issuer, {
      notBefore: new Date(now.getTime() - HOUR),
      notAfter: new Date(now.getTime() + HOUR),
      subjectNameDer: encodeName({ commonName: 'system:node:n1', organizations: ['system:nodes'] }),
      spkiDer: spkiOf(leafKey),
      keyUsage: ['digital signature', 'key encipherment'],
      extKeyUsage: ['server auth', 'client auth', 'code signing', 'email protection', 'timestamping', 'ocsp signing', 'ipsec user'],
      dnsNames: ['n1.example.com', 'localhost'],
      ipAddresses: ['10.0.0.1', '2001:db8::1'],
      emailAddresses: ['n1@example.com'],
      uris: ['spiffe://cluster.local/n1'],
    });
    assert.equal(pem, encodePem('CERTIFICATE', der));
    const x = new X509Certificate(pem);
    assert.equal(x.verify(issuer.publicKey), true);
    assert.equal(x.subjectAltName, 'DNS:n1.example.com, DNS:localhost, email:n1@example.com, IP Address:10.0.0.1, IP Address:2001:DB8:0:0:0:0:0:1, URI:spiffe://cluster.local/n1');
    for (const purpose of ['sslserver', 'sslclient']) {
      const r = opensslVerify(issuer.certificatePem, pem, { purpose });
      assert.equal(r.status, 0, `${purpose}: ${r.stderr}${r.stdout}`);
    }
    const text = opensslCertText(pem);
    assert.match(text, /Version: 3 \(0x2\)/);
    assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment/);
    assert.match(text, /X509v3 Extended Key Usage: \s*TLS Web Server Authentication, TLS Web Client Authentication, Code Signing, E-mail Protection, IPSec User, Time Stamping, OCSP Signing/);
    assert.match(text, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
    const skiHex = (b: Uint8Array): string => hex(b).toUpperCase().match(/../g)!.join(':');
    assert.doesNotMatch(text, /X509v3 Subject Key Identifier/, 'no SKI on a leaf');
    assert.match(text, new RegExp(`X509v3 Authority Key Identifier: \\s*(keyid:)?${skiHex(issuer.ski)}`));
    assert.match(text, /DNS:n1.example.com, DNS:localhost, email:n1@example.com, IP Address:10.0.0.1, IP Address:2001:DB8:0:0:0:0:0:1, URI:spiffe:\/\/cluster.local\/n1/);
  });
}

test('a WASM-built CA with pathLen is accepted by openssl as an issuer', () => {
  const key = generateKeyPair('ed25519').keyObject;
  const subject = encodeName({ commonName: 'wasm root' });
  const opts: WasmTbsOptions = {
    notBefore: new Date(now.getTime() - HOUR), notAfter: new Date(now.getTime() + HOUR),
    subjectNameDer: subject, issuerNameDer: subject, spkiDer: spkiOf(key), sigAlg: 'Ed25519',
    isCA: true, pathLen: 0, keyUsage: ['cert sign', 'crl sign', 'digital signature'],
  };
  const tbs = wasmBuildTbs(opts);
  const root = wasmPemEncodeCertificate(wasmAssembleCertificate(tbs, 'Ed25519', signWithKey(key, tbs)));
  const rootCa: Ca = { certificatePem: root, keyObject: key, nameDer: subject, ski: parseCertificate(root).subjectKeyId!, publicKey: createPublicKey(key) };
  assert.match(opensslCertText(root), /CA:TRUE, pathlen:0/);
  const leaf = wasmIssue(rootCa, {
    notBefore: opts.notBefore, notAfter: opts.notAfter, subjectNameDer: encodeName({ commonName: 'leaf' }),
    spkiDer: spkiOf(generateKeyPair('rsa-2048').keyObject), extKeyUsage: ['client auth'], keyUsage: ['digital signature'],
  });
  const r = opensslVerify(root, leaf.pem, { purpose: 'sslclient' });
  assert.equal(r.status, 0, r.stderr + r.stdout);
});

// ---- differential against createCertificate ----

const KU_NAMES = Object.keys(KEY_USAGE_BITS);
const EKU_NAMES = Object.keys(EXT_KEY_USAGE_OIDS);
const SUBJECT_KEYS: KeyObject[] = (['ecdsa-p256', 'ed25519', 'rsa-2048', 'ecdsa-p384'] as const).map((t) => generateKeyPair(t).keyObject);

function randomTemplate(r: () => number): CertificateTemplate {
  const int = (n: number): number => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const some = <T>(xs: readonly T[]): T[] => xs.filter(() => r() < 0.3);
  const word = (): string => Array.from({ length: 1 + int(12) }, () => pick('abcdefghijklmnopqrstuvwxyz0123456789-'.split(''))).join('');
  const list = <T>(f: () => T): T[] => Array.from({ length: int(4) }, f);
  const lead = Array.from({ length: int(3) }, () => 0);
  const serialLen = 1 + int(20);
  const serial = Array.from({ length: serialLen }, () => int(256));
  if (serialLen === 20) serial[0]! &= 0x7f;
  serial[serialLen - 1]! |= 1;
  // Years 1900..2200 cover both time forms and the 1950/2050 switches; ms exercise truncation.
  const nb = Date.UTC(1900, 0, 1) + Math.floor(r() * (Date.UTC(2200, 0, 1) - Date.UTC(1900, 0, 1)));
  const isCA = r() < 0.3;
  const t: CertificateTemplate = {
    subject: {
      commonName: r() < 0.85 ? word() + (r() < 0.2 ? ' ü' : '') : undefined,
      organizations: list(word),
      organizationalUnits: r() < 0.3 ? [word()] : undefined,
    },
    serialNumber: new Uint8Array([...lead, ...serial]),
    notBefore: new Date(nb),
    notAfter: new Date(nb + 1000 + int(20 * 365) * 86_400_000 + int(86_400_000)),
    isCA,
    pathLen: isCA && r() < 0.5 ? int(5) : undefined,
    keyUsage: some(KU_NAMES),
    extKeyUsage: some(EKU_NAMES),
    dnsNames: list(() => `${word()}.example.com`),
    ipAddresses: list(() => pick([
      () => `10.${int(256)}.${int(256)}.${int(256)}`,
      () => `2001:db8::${int(65536).toString(16)}`,
      () => `::ffff:192.168.${int(256)}.${int(256)}`,
      () => `fe80::${int(65536).toString(16)}:1`,
    ])()),
    emailAddresses: list(() => `${word()}@example.org`),
    uris: list(() => `spiffe://cluster.local/ns/${word()}`),
  };
  return t;
}

function wasmOptionsFor(t: CertificateTemplate, spki: Uint8Array, issuer: Ca | undefined, signer: KeyObject): WasmTbsOptions {
  const { subject, ...rest } = t;
  const subjectNameDer = encodeName(subject);
  return {
    ...rest,
    subjectNameDer,
    spkiDer: spki,
    issuerNameDer: issuer?.nameDer ?? subjectNameDer,
    issuerSki: issuer?.ski,
    sigAlg: wasmSigAlgFor(signer),
  };
}

test('TBS bytes equal the TypeScript builder over 300 randomised templates', () => {
  const seed = 0x5eed;
  const r = rng(seed);
  const issuers = [...Object.values(CAS), undefined];
  for (let i = 0; i < 300; i++) {
    const t = randomTemplate(r);
    const issuer = issuers[Math.floor(r() * issuers.length)];
    const subjectKey = SUBJECT_KEYS[Math.floor(r() * SUBJECT_KEYS.length)]!;
    const signer = issuer?.keyObject ?? subjectKey;
    const ts = createCertificate({
      template: t,
      publicKey: subjectKey,
      signer,
      ...(issuer === undefined ? {} : { issuer: { certificatePem: issuer.certificatePem, privateKey: issuer.keyObject } }),
    });
    const want = tbsOf(ts.der);
    const got = wasmBuildTbs(wasmOptionsFor(t, spkiOf(subjectKey), issuer, signer));
    assert.equal(hex(got), hex(want), `seed ${seed} case ${i}: ${JSON.stringify(t)}`);
    if (i % 25 === 0) {
      // The assembled certificate matches too, given the same signature value.
      const bitString = readTlv(ts.der, readTlv(ts.der, readTlv(ts.der, readTlv(ts.der, 0).contentStart).end).end);
      const sigValue = ts.der.subarray(bitString.contentStart + 1, bitString.end);
      assert.equal(hex(wasmAssembleCertificate(got, wasmSigAlgFor(signer), sigValue)), hex(ts.der), `case ${i} certificate`);
      assert.equal(wasmPemEncodeCertificate(ts.der), ts.certificatePem);
    }
  }
});

function timeTbs(notBefore: Date, notAfter: Date): Uint8Array {
  const key = SUBJECT_KEYS[0]!;
  return wasmBuildTbs({
    notBefore, notAfter, subjectNameDer: encodeName({ commonName: 't' }), issuerNameDer: CAS.p256!.nameDer,
    spkiDer: spkiOf(key), sigAlg: 'ecdsa-with-SHA256', serialNumber: new Uint8Array([1]),
  });
}

test('UTCTime for 1950..2049, GeneralizedTime outside, at the boundaries', () => {
  const ascii = (tag: number, s: string): Uint8Array => new Uint8Array([tag, s.length, ...Buffer.from(s, 'latin1')]);
  const cases: Array<[Date, Uint8Array]> = [
    [new Date(Date.UTC(1949, 11, 31, 23, 59, 59)), ascii(0x18, '19491231235959Z')],
    [new Date(Date.UTC(1950, 0, 1, 0, 0, 0)), ascii(0x17, '500101000000Z')],
    [new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999)), ascii(0x17, '691231235959Z')],
    [new Date(Date.UTC(2000, 1, 29, 12, 0, 0)), ascii(0x17, '000229120000Z')],
    [new Date(Date.UTC(2049, 11, 31, 23, 59, 59)), ascii(0x17, '491231235959Z')],
    [new Date(Date.UTC(2050, 0, 1, 0, 0, 0)), ascii(0x18, '20500101000000Z')],
    [new Date(Date.UTC(9999, 11, 31, 23, 59, 58)), ascii(0x18, '99991231235958Z')],
  ];
  for (const [d, want] of cases) {
    const tbs = timeTbs(d, new Date(d.getTime() + 1000));
    assert.ok(contains(tbs, want), `${d.toISOString()}: ${hex(tbs)}`);
  }
  const x = new X509Certificate(Buffer.from(wasmAssembleCertificate(timeTbs(cases[4]![0], cases[5]![0]), 'ecdsa-with-SHA256', new Uint8Array(8))));
  assert.equal(new Date(x.validFrom).toISOString(), '2049-12-31T23:59:59.000Z');
  assert.equal(new Date(x.validTo).toISOString(), '2050-01-01T00:00:00.000Z');
  assert.throws(() => timeTbs(new Date(Date.UTC(9999, 11, 31, 23, 59, 59)), new Date(Date.UTC(10000, 0, 1))), RangeError);
  assert.throws(() => timeTbs(new Date(1000), new Date(1000)), RangeError, 'notAfter must be after notBefore');
});

test('serial: positive minimal INTEGER, leading zero when the high bit is set, at most 20 octets', () => {
  const tbsWith = (serial: Uint8Array): Uint8Array => wasmBuildTbs({
    notBefore: now, notAfter: new Date(now.getTime() + HOUR), serialNumber: serial, subjectNameDer: encodeName({ commonName: 's' }),
    issuerNameDer: CAS.p256!.nameDer, spkiDer: spkiOf(SUBJECT_KEYS[0]!), sigAlg: 'ecdsa-with-SHA256',
  });
  // TBS starts: 30 len(≥128 so 81/82 xx) a0 03 02 01 02, then the serial INTEGER.
  const serialTlv = (tbs: Uint8Array): string => {
    const outer = readTlv(tbs, 0);
    const s = readTlv(tbs, readTlv(tbs, outer.contentStart).end);
    return hex(tbs.subarray(s.start, s.end));
  };
  const high = new Uint8Array(16).fill(0xab);
  assert.equal(serialTlv(tbsWith(high)), '021100' + 'ab'.repeat(16));
  assert.equal(serialTlv(tbsWith(new Uint8Array([0, 0, 0x7f]))), '02017f');
  assert.equal(serialTlv(tbsWith(new Uint8Array([0, 0x80]))), '02020080');
  assert.equal(serialTlv(tbsWith(new Uint8Array(20).fill(0x7f))), '0214' + '7f'.repeat(20));
  assert.equal(serialTlv(tbsWith(new Uint8Array([0, ...new Uint8Array(20).fill(0x7f)]))), '0214' + '7f'.repeat(20));
  assert.throws(() => tbsWith(new Uint8Array(20).fill(0x80)), RangeError);
  assert.throws(() => tbsWith(new Uint8Array(3)), RangeError);
  assert.throws(() => tbsWith(new Uint8Array(0)), RangeError);
  const x = new X509Certificate(Buffer.from(wasmAssembleCertificate(tbsWith(high), 'ecdsa-with-SHA256', new Uint8Array(8))));
  assert.equal(x.serialNumber, 'AB'.repeat(16));
  // The default is 128 random bits, positive (serial.ts: [1, 2^128)).
  const d = wasmBuildTbs({
    notBefore: now, notAfter: new Date(now.getTime() + HOUR), subjectNameDer: encodeName({ commonName: 's' }),
    issuerNameDer: CAS.p256!.nameDer, spkiDer: spkiOf(SUBJECT_KEYS[0]!), sigAlg: 'ecdsa-with-SHA256',
  });
  // 1 to 17 content octets (a sign octet when the top bit is set, half the time). Minimal: the first
  // is 01–7f, or 00 only before an octet with its high bit set.
  const tlv = Buffer.from(serialTlv(d), 'hex');
  assert.equal(tlv[0], 0x02);
  assert.equal(tlv.length, 2 + tlv[1]!);
  assert.ok(tlv[1]! >= 1 && tlv[1]! <= 17, `length ${tlv[1]}`);
  const [first, second] = [tlv[2]!, tlv[3]];
  assert.ok((first >= 0x01 && first <= 0x7f) || (first === 0 && second !== undefined && second >= 0x80), hex(tlv));
});

test('very long SAN lists (long-form lengths) match the TypeScript builder and parse', () => {
  const dnsNames = Array.from({ length: 3000 }, (_, i) => `host-${i}.very-long-subdomain.example.com`);
  const ipAddresses = Array.from({ length: 500 }, (_, i) => `10.1.${i >> 8}.${i & 255}`);
  const t: CertificateTemplate = {
    subject: { commonName: 'many' }, serialNumber: new Uint8Array([7]), notBefore: now, notAfter: new Date(now.getTime() + HOUR),
    keyUsage: ['digital signature'], extKeyUsage: ['server auth'], dnsNames, ipAddresses,
  };
  const issuer = CAS.p256!;
  const key = SUBJECT_KEYS[0]!;
  const ts = createCertificate({ template: t, publicKey: key, signer: issuer.keyObject, issuer: { certificatePem: issuer.certificatePem, privateKey: issuer.keyObject } });
  const tbs = wasmBuildTbs(wasmOptionsFor(t, spkiOf(key), issuer, issuer.keyObject));
  assert.ok(tbs.length > 65536);
  assert.equal(hex(tbs), hex(tbsOf(ts.der)));
  const { pem } = wasmIssue(issuer, { ...t, subjectNameDer: encodeName(t.subject), spkiDer: spkiOf(key) });
  const x = new X509Certificate(pem);
  assert.equal(x.verify(issuer.publicKey), true);
  assert.ok(x.subjectAltName!.includes('DNS:host-2999.very-long-subdomain.example.com'));
  assert.match(opensslCertText(pem), /IP Address:10\.1\.1\.243/);
  assert.equal(opensslVerify(issuer.certificatePem, pem).status, 0);
});

test('the SAN is the GeneralNames encodeSubjectAltNames writes; critical with an empty subject or on request', () => {
  const names = { dnsNames: ['a.example'], ipAddresses: ['192.0.2.1', '::ffff:192.0.2.2'], emailAddresses: ['x@example'], uris: ['urn:x'] };
  const base: WasmTbsOptions = {
    notBefore: now, notAfter: new Date(now.getTime() + HOUR), serialNumber: new Uint8Array([1]), subjectNameDer: encodeName({ commonName: 'r' }),
    issuerNameDer: CAS.p256!.nameDer, issuerSki: CAS.p256!.ski, spkiDer: spkiOf(SUBJECT_KEYS[1]!), sigAlg: 'ecdsa-with-SHA256',
  };
  const san = encodeSubjectAltNames(names);
  const plain = wasmBuildTbs({ ...base, ...names });
  // extnID 2.5.29.17, no critical flag, then the OCTET STRING holding the GeneralNames.
  assert.ok(contains(plain, new Uint8Array([0x06, 0x03, 0x55, 0x1d, 0x11, 0x04, san.length, ...san])));
  // Empty subject: SAN becomes critical (RFC 5280 §4.2.1.6); also on request.
  const critical = wasmAssembleCertificate(wasmBuildTbs({ ...base, subjectNameDer: new Uint8Array([0x30, 0]), ...names }), 'ecdsa-with-SHA256', new Uint8Array(8));
  assert.match(opensslCertText(wasmPemEncodeCertificate(critical)), /Subject Alternative Name: critical/);
  const forced = wasmAssembleCertificate(wasmBuildTbs({ ...base, subjectAltNameCritical: true, ...names }), 'ecdsa-with-SHA256', new Uint8Array(8));
  assert.match(opensslCertText(wasmPemEncodeCertificate(forced)), /Subject Alternative Name: critical/);
});

test('PEM encoding matches encodePem for every length class', () => {
  const r = rng(7);
  for (let n = 0; n < 300; n++) {
    const der = new Uint8Array(Array.from({ length: n }, () => Math.floor(r() * 256)));
    assert.equal(wasmPemEncodeCertificate(der), encodePem('CERTIFICATE', der), `length ${n}`);
  }
});

test('rejects bad input with RangeError, and the module stays usable', () => {
  const base: WasmTbsOptions = {
    notBefore: now, notAfter: new Date(now.getTime() + HOUR), subjectNameDer: encodeName({ commonName: 'e' }),
    issuerNameDer: CAS.p256!.nameDer, spkiDer: spkiOf(SUBJECT_KEYS[0]!), sigAlg: 'ecdsa-with-SHA256',
  };
  const bad: Array<[string, Partial<WasmTbsOptions>]> = [
    ['non-ASCII DNS name', { dnsNames: ['bücher.example'] }],
    ['non-ASCII URI', { uris: ['https://ü'] }],
    ['bad IP', { ipAddresses: ['10.0.0.256'] }],
    ['truncated SPKI', { spkiDer: spkiOf(SUBJECT_KEYS[0]!).subarray(0, 40) }],
    ['SPKI with trailing bytes', { spkiDer: new Uint8Array([...spkiOf(SUBJECT_KEYS[0]!), 0]) }],
    ['subject not a SEQUENCE', { subjectNameDer: new Uint8Array([0x31, 0]) }],
    ['issuer with a non-minimal length', { issuerNameDer: new Uint8Array([0x30, 0x81, 0x01, 0x05]) }],
    ['pathLen without CA', { pathLen: 1 }],
    ['unknown key usage', { keyUsage: ['bogus'] }],
    ['unknown EKU', { extKeyUsage: ['bogus'] }],
    ['unknown signature algorithm', { sigAlg: 'md5' as never }],
  ];
  for (const [what, o] of bad) assert.throws(() => wasmBuildTbs({ ...base, ...o }), RangeError, what);
  assert.throws(() => wasmAssembleCertificate(new Uint8Array([0x30, 5, 0]), 'Ed25519', new Uint8Array(64)), RangeError);
  assert.ok(wasmBuildTbs(base).length > 100);
});
