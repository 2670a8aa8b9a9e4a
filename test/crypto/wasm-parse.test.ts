// The WASM parsers (core/crypto/wasm/parse.ts) against the TypeScript ones they replace: the same
// ParsedCsr for CSRs made by openssl, the same error texts for hand-made malformed ones, the same
// status.certificate verdicts, and a bounded mutation fuzz where both must agree on every input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CryptoError, decodeFirstPemBlock, encodePem, parseCsr, validateCertificatePemTypescript as validateCertificatePem } from '../../core/crypto/index.js';
import { readTlv } from '../../core/crypto/der.js';
import { bitString, concat, oid, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { goParseCases } from './cert-go-parse-cases.js';
import { MESSAGES, wasmDecodeFirstPem, wasmEncodePem, wasmParseCsr, wasmParseCsrDer, wasmValidateCertificatePem } from '../../core/crypto/wasm/parse.js';
import { WasmAbort } from '../../core/crypto/wasm/instance.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { opensslCa, opensslCsr, type OpensslKeyType } from '../helpers/openssl.js';
import { cnName, craftCsr, extension, extensionRequest, OIDS } from './csr-craft.js';

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof CryptoError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Both parsers on one input: equal ParsedCsr (ranges aside) or equal error text. */
function same(input: string | Uint8Array, label = ''): Outcome {
  const ts = outcome(() => parseCsr(input));
  const wa = outcome(() => {
    const { ranges, ...rest } = wasmParseCsr(input);
    return rest;
  });
  assert.deepEqual(wa, ts, label);
  return ts;
}

const SUBJECT = '/CN=node:a+OU=nodes/O=system:nodes/O=second org/O=third/C=DE/emailAddress=a@b.example';
const SANS = ['DNS:a.example', 'DNS:*.b.example', 'IP:10.1.2.3', 'IP:2001:db8::1', 'IP:::ffff:1.2.3.4', 'email:x@y.example', 'URI:spiffe://cluster/ns/a'];
const KEYS: OpensslKeyType[] = ['rsa-2048', 'ec-p256', 'ec-p384', 'ec-p521', 'ed25519'];

const openssl = KEYS.map((keyType) => ({ keyType, pem: opensslCsr({ keyType, subject: SUBJECT, sans: SANS }).csrPem }));
const utf8Csr = opensslCsr({ subject: '/CN=Jürgen ✓/O=Ünïcode/OU=plain', utf8: true, addext: ['keyUsage=critical,digitalSignature', 'extendedKeyUsage=clientAuth', 'basicConstraints=critical,CA:FALSE'] }).csrPem;

test('openssl CSRs of every key type parse to the same fields', () => {
  for (const { keyType, pem } of openssl) {
    const r = same(pem, keyType);
    assert.ok(r.ok, keyType);
  }
  const r = same(utf8Csr, 'utf8');
  assert.ok(r.ok);
  const csr = wasmParseCsr(utf8Csr);
  assert.equal(csr.commonName, 'Jürgen ✓');
  assert.deepEqual(csr.extensions.map((e) => [e.oid, e.critical]), [['2.5.29.15', true], ['2.5.29.37', false], ['2.5.29.19', true]]);
});

test('fields and ranges of an openssl P-256 CSR', () => {
  const csr = wasmParseCsr(openssl[1]!.pem);
  assert.deepEqual(csr.organizations, ['system:nodes', 'second org', 'third']);
  // openssl sorts the SET OF by encoding, so OU comes before CN.
  assert.deepEqual(csr.subject[0]!.map((a) => a.shortName).sort(), ['CN', 'OU']);
  assert.deepEqual(csr.ipAddresses, ['10.1.2.3', '2001:db8::1', '1.2.3.4']);
  assert.deepEqual(csr.publicKey.curve, 'P-256');
  // The ranges are the elements a second reading finds.
  const top = readTlv(csr.der, 0);
  const info = readTlv(csr.der, top.contentStart);
  assert.deepEqual(csr.ranges.certificationRequestInfo, { offset: info.start, length: info.end - info.start });
  const subjectStart = readTlv(csr.der, info.contentStart).end;
  const subject = readTlv(csr.der, subjectStart);
  assert.deepEqual(csr.ranges.subject, { offset: subject.start, length: subject.end - subject.start });
  const spki = readTlv(csr.der, subject.end);
  assert.deepEqual(csr.ranges.subjectPublicKeyInfo, { offset: spki.start, length: spki.end - spki.start });
  const alg = readTlv(csr.der, info.end);
  const sig = readTlv(csr.der, alg.end);
  assert.deepEqual(csr.ranges.signature, { offset: sig.contentStart + 1, length: sig.end - sig.contentStart - 1 });
  assert.equal(csr.ranges.signatureUnusedBits, 0);
  // DER entry point agrees with the PEM one.
  const { ranges, ...viaDer } = wasmParseCsrDer(csr.der);
  const { ranges: r2, ...viaPem } = csr;
  assert.deepEqual(viaDer, viaPem);
  assert.deepEqual(ranges, r2);
});

const ecKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const edKey = generateKeyPairSync('ed25519').privateKey;
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
const san = (...names: Uint8Array[]): Uint8Array => extension(OIDS.san, seq(...names));
const dns = (s: string): Uint8Array => tlv(0x82, Buffer.from(s));
const good = craftCsr({ key: ecKey, subject: cnName('good') });
const goodDer = decodeFirstPemBlock(good)!.block.der;
const req = (der: Uint8Array): string => encodePem('CERTIFICATE REQUEST', der);

function malformedCases(): [string, string | Uint8Array][] {
  const ecSpki = new Uint8Array(createPublicKey(ecKey).export({ type: 'spki', format: 'der' }));
  const offCurve = new Uint8Array(ecSpki);
  offCurve[offCurve.length - 1]! ^= 0x01;
  const edRaw = new Uint8Array(createPublicKey(edKey).export({ type: 'spki', format: 'der' })).subarray(-32);
  const pkcs1 = new Uint8Array(rsaKey.export({ type: 'pkcs1', format: 'der' }));
  const x25519 = new Uint8Array(generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' }));
  const ber = new Uint8Array([0x30, 0x80, ...goodDer.subarray(goodDer[1]! & 0x80 ? 2 + (goodDer[1]! & 0x7f) : 2), 0, 0]);
  const twoCn = tlv(0x30, concat([cnName('first'), cnName('second')].map((n) => n.subarray(2))));
  const challenge = seq(oid('1.2.840.113549.1.9.7'), setOf(tlv(0x0c, Buffer.from('secret'))));
  const atv = (value: Uint8Array): Uint8Array => seq(setOf(seq(oid(OIDS.cn), value)));
  return [
    ['wrong label', encodePem('CERTIFICATE', goodDer)],
    ['no PEM', 'hello'],
    ['junk around', `junk\n${good}trailing -----BEGIN X-----\n`],
    ['headers', good.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\nX: y\n\n')],
    ['bytes input', Buffer.from(good)],
    ['duplicate extensions', craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a')), san(dns('b')))] })],
    ['duplicate across attributes', craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a'))), extensionRequest(san(dns('b')))] })],
    ['IP length', craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x87, new Uint8Array(5))))] })],
    ['dNSName', craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x82, new Uint8Array([0xc3, 0xa9]))))] })],
    ['rfc822', craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x81, new Uint8Array([0x80]))))] })],
    ['URI', craftCsr({ key: ecKey, attributes: [extensionRequest(san(tlv(0x86, new Uint8Array([0xff]))))] })],
    ['SAN not a sequence', craftCsr({ key: ecKey, attributes: [extensionRequest(extension(OIDS.san, tlv(0x04, new Uint8Array(0))))] })],
    ['SAN bad element', craftCsr({ key: ecKey, attributes: [extensionRequest(extension(OIDS.san, new Uint8Array([0x30, 0x02, 0x82, 0x05])))] })],
    ['other GeneralNames', craftCsr({ key: ecKey, attributes: [extensionRequest(san(dns('a'), tlv(0xa4, cnName('dir'))))] })],
    ['skipped attributes', craftCsr({ key: ecKey, attributes: [smallInteger(5), challenge, extensionRequest(san(dns('x')))] })],
    ['bad critical', craftCsr({ key: ecKey, attributes: [extensionRequest(seq(oid(OIDS.san), tlv(0x01, new Uint8Array([7])), tlv(0x04, seq(dns('a')))))] })],
    ['PrintableString', craftCsr({ key: ecKey, subject: atv(tlv(0x13, Buffer.from('a@b'))) })],
    ['UTF-8', craftCsr({ key: ecKey, subject: atv(tlv(0x0c, new Uint8Array([0xff]))) })],
    ['UTF-8 surrogate', craftCsr({ key: ecKey, subject: atv(tlv(0x0c, new Uint8Array([0xed, 0xa0, 0x80]))) })],
    ['IA5', craftCsr({ key: ecKey, subject: atv(tlv(0x16, new Uint8Array([0x80]))) })],
    ['Numeric', craftCsr({ key: ecKey, subject: atv(tlv(0x12, Buffer.from('12a'))) })],
    ['BMP odd', craftCsr({ key: ecKey, subject: atv(tlv(0x1e, new Uint8Array([0, 0x41, 0]))) })],
    ['BMP', craftCsr({ key: ecKey, subject: atv(tlv(0x1e, new Uint8Array([0, 0x41, 0x20, 0xac, 0, 0]))) })],
    ['T61', craftCsr({ key: ecKey, subject: atv(tlv(0x14, new Uint8Array([0xe9]))) })],
    ['non-string CN', craftCsr({ key: ecKey, subject: atv(smallInteger(7)) })],
    ['RDN not a SET', craftCsr({ key: ecKey, subject: seq(seq()) })],
    ['subject not a SEQUENCE', craftCsr({ key: ecKey, subject: setOf() })],
    ['last CN wins', craftCsr({ key: ecKey, subject: twoCn })],
    ['off-curve point', craftCsr({ key: ecKey, spki: offCurve })],
    ['compressed point', craftCsr({ key: ecKey, spki: seq(seq(oid('1.2.840.10045.2.1'), oid('1.2.840.10045.3.1.7')), bitString(new Uint8Array([0x02, ...ecSpki.subarray(-64, -32)]))) })],
    ['no curve', craftCsr({ key: ecKey, spki: seq(seq(oid('1.2.840.10045.2.1')), bitString(ecSpki.subarray(-65))) })],
    ['unknown curve', craftCsr({ key: ecKey, spki: seq(seq(oid('1.2.840.10045.2.1'), oid('1.3.132.0.10')), bitString(ecSpki.subarray(-65))) })],
    ['Ed25519 params', craftCsr({ key: edKey, spki: seq(seq(oid(OIDS.ed25519), tlv(0x05, new Uint8Array(0))), bitString(edRaw)) })],
    ['Ed25519 size', craftCsr({ key: edKey, spki: seq(seq(oid(OIDS.ed25519)), bitString(edRaw.subarray(1))) })],
    ['RSA no NULL', craftCsr({ key: rsaKey, spki: seq(seq(oid('1.2.840.113549.1.1.1')), bitString(pkcs1)) })],
    ['RSA key not DER', craftCsr({ key: rsaKey, spki: seq(seq(oid('1.2.840.113549.1.1.1'), tlv(0x05, new Uint8Array(0))), bitString(new Uint8Array([1, 2]))) })],
    ['RSA negative modulus', craftCsr({ key: rsaKey, spki: seq(seq(oid('1.2.840.113549.1.1.1'), tlv(0x05, new Uint8Array(0))), bitString(seq(tlv(0x02, new Uint8Array([0x80, 1])), smallInteger(3)))) })],
    ['RSA key 1024', craftCsr({ key: rsaKey })],
    ['x25519 key', craftCsr({ key: ecKey, spki: x25519 })],
    ['trailing byte', req(new Uint8Array([...goodDer, 0]))],
    ['truncated', req(goodDer.subarray(0, goodDer.length - 1))],
    ['empty DER', req(new Uint8Array(0))],
    ['tags do not match', req(new Uint8Array([0x02, 0x01, 0x00]))],
    ['indefinite length', req(ber)],
    ['trailing in tbs', req(seq(seq(smallInteger(0), cnName('x'), new Uint8Array(createPublicKey(ecKey).export({ type: 'spki', format: 'der' })), tlv(0xa0, new Uint8Array(0)), smallInteger(1)), seq(oid(OIDS.ecdsaWithSHA256)), bitString(new Uint8Array(8))))],
  ];
}

test('malformed CSRs fail with the same texts as the TypeScript parser', () => {
  const seen = new Set<string>();
  for (const [name, input] of malformedCases()) {
    const r = same(input, name);
    seen.add(r.ok ? 'ok' : r.error.replace(/\(.*/, ''));
  }
  assert.ok(seen.size > 25, `distinct outcomes: ${seen.size}`);
});

test('every error code has a message', () => {
  for (const m of Object.values(MESSAGES)) assert.ok(m.length > 0);
});

test('PEM decode and encode agree with the TypeScript PEM', () => {
  const der = goodDer;
  const inputs = [good, `x\r\n${good.replace(/\n/g, '\r\n')}`, good.replace('-----\n', '-----\nA: b\n'), '-----BEGIN X-----\n!!\n-----END X-----\n' + good,
    '-----BEGIN A-----\nAAA=\n-----END B-----\n', '-----BEGIN A-----\nAA==\n-----END A-----', '-----BEGIN A-----\n A A = = \n-----END A-----\n', '-----BEGIN A-----\nAAA\n-----END A-----\n', ''];
  for (const input of inputs) {
    const ts = decodeFirstPemBlock(input);
    const wa = wasmDecodeFirstPem(input);
    assert.deepEqual(wa, ts === undefined ? undefined : { label: ts.block.label, headerCount: Object.keys(ts.block.headers).length, der: ts.block.der }, JSON.stringify(input));
  }
  for (const n of [0, 1, 2, 3, 47, 48, 49, 100, 1000]) {
    const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 0xff);
    assert.equal(wasmEncodePem('CERTIFICATE', bytes), encodePem('CERTIFICATE', bytes), `length ${n}`);
  }
  assert.equal(wasmEncodePem('CERTIFICATE REQUEST', der), encodePem('CERTIFICATE REQUEST', der));
  assert.throws(() => wasmEncodePem('A-----B', der), TypeError);
});

// status.certificate: the table of test/crypto/certificate-pem.test.ts, compared verdict by verdict.
const ca = makeCa();
const leaf = makeCert(ca, { commonName: 'leaf', extKeyUsage: ['client auth'] });
const foreign = decodeFirstPemBlock(opensslCa('/CN=openssl-ca/O=x', 'rsa-2048').certPem)!.block.der;
const certPem = (der: Uint8Array): string => encodePem('CERTIFICATE', der);
const cat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

function outerAlgorithmSwapped(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der);
  const cert = readTlv(copy, 0);
  const tbs = readTlv(copy, cert.contentStart);
  const alg = readTlv(copy, tbs.end);
  copy[alg.end - 1]! ^= 0x01;
  return copy;
}

const certCases: [string, string | Uint8Array][] = [
  ['one', leaf.certificatePem],
  ['openssl', certPem(foreign)],
  ['two blocks', leaf.certificatePem + ca.certificatePem],
  ['two in one block', certPem(cat(leaf.der, ca.der))],
  ['three', certPem(cat(leaf.der, foreign)) + ca.certificatePem],
  ['text around', `Subject: leaf\n${leaf.certificatePem}\nIssuer: ca\n${ca.certificatePem}-- end --\n`],
  ['bytes', Buffer.from(leaf.certificatePem)],
  ['empty', ''],
  ['no block', 'no pem here'],
  ['broken block', '-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n'],
  ['wrong label', encodePem('CERTIFICATE REQUEST', leaf.der)],
  ['wrong label 2', leaf.certificatePem + encodePem('PRIVATE KEY', leaf.der)],
  ['non-ASCII label', encodePem('CERTIFICATE ✓ "q"', leaf.der)],
  ['headers', leaf.certificatePem.replace('-----\n', '-----\nComment: hi\n\n')],
  ['zero certificates', certPem(new Uint8Array(0))],
  ['not DER', certPem(new Uint8Array([1, 2, 3]))],
  ['trailing byte', certPem(cat(leaf.der, new Uint8Array([0])))],
  ['truncated', certPem(leaf.der.subarray(0, leaf.der.length - 3))],
  ['a CSR', certPem(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]))],
  ['algorithms differ', certPem(outerAlgorithmSwapped(leaf.der))],
  ['good then bad', leaf.certificatePem + certPem(new Uint8Array([0x30, 0x00]))],
  // Go 1.23's extension, DSA key and Validity rules (test/crypto/cert-go-parse-cases.ts).
  ...goParseCases(leaf.der).filter((c) => !c.nodeRefuses).map((c): [string, string] => [c.id, certPem(c.der)]),
];

test('validateCertificatePem: same verdict as the TypeScript version on every case', () => {
  for (const [name, input] of certCases) {
    assert.deepEqual(wasmValidateCertificatePem(input), validateCertificatePem(input), name);
  }
});

test('validateCertificatePem: where node is stricter than Go, only the TypeScript version refuses', () => {
  for (const c of goParseCases(leaf.der).filter((x) => x.nodeRefuses)) {
    assert.deepEqual(wasmValidateCertificatePem(certPem(c.der)), { ok: true, certificates: [c.der] }, c.id);
    assert.deepEqual(validateCertificatePem(certPem(c.der)), { ok: false, error: 'x509: malformed certificate' }, c.id);
  }
});

/** Deterministic PRNG (mulberry32) so that a failing mutation can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(der: Uint8Array, next: () => number): Uint8Array {
  const out = new Uint8Array(der);
  const at = Math.floor(next() * der.length);
  switch (Math.floor(next() * 5)) {
    case 0: // bit flip
      out[at]! ^= 1 << Math.floor(next() * 8);
      return out;
    case 1: // truncation
      return out.subarray(0, at);
    case 2: // length inflation: a length-looking byte made bigger or long-form
      out[at] = [0x80, 0x81, 0x84, 0xff, out[at]! + 1][Math.floor(next() * 5)]! & 0xff;
      return out;
    case 3: // random byte
      out[at] = Math.floor(next() * 256);
      return out;
    default: // inserted byte
      return cat(der.subarray(0, at), new Uint8Array([Math.floor(next() * 256)]), der.subarray(at));
  }
}

test('mutation fuzz: CSRs (2000 inputs) — no abort, same outcome and text as the TypeScript parser', () => {
  const next = rng(0x5eed);
  const bases = [...openssl.map((o) => decodeFirstPemBlock(o.pem)!.block.der), decodeFirstPemBlock(utf8Csr)!.block.der];
  let accepted = 0;
  for (let i = 0; i < 2000; i++) {
    const base = bases[i % bases.length]!;
    let der = mutate(base, next);
    if (next() < 0.3) der = mutate(der, next);
    try {
      if (same(req(der), `mutation ${i}`).ok) accepted++;
    } catch (e) {
      assert.ok(!(e instanceof WasmAbort), `mutation ${i}: ${String(e)}`);
      throw e;
    }
  }
  assert.ok(accepted > 0 && accepted < 2000, `accepted ${accepted}`);
});

test('mutation fuzz: certificates (1000 inputs) — no abort; verdicts agree except where node is stricter', () => {
  const next = rng(0xce47);
  const bases = [leaf.der, ca.der, foreign];
  let nodeOnly = 0;
  for (let i = 0; i < 1000; i++) {
    const input = certPem(mutate(bases[i % bases.length]!, next));
    const ts = validateCertificatePem(input);
    const wa = wasmValidateCertificatePem(input);
    // The TS version also requires node's X509Certificate to load each certificate.
    if (!ts.ok && ts.error === 'x509: malformed certificate' && wa.ok) {
      nodeOnly++;
      continue;
    }
    assert.deepEqual(wa, ts, `mutation ${i}`);
  }
  assert.ok(nodeOnly < 100, `node-only rejections: ${nodeOnly}`);
});

test('hostile sizes and nesting do not abort', () => {
  const deep = Array.from({ length: 5000 }, () => 0x30).flatMap((b) => [b, 0x80]);
  for (const der of [new Uint8Array(deep), new Uint8Array([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff]), new Uint8Array([0x30, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0])]) {
    same(req(der));
    assert.deepEqual(wasmValidateCertificatePem(certPem(der)), validateCertificatePem(certPem(der)));
  }
  // Thousands of SANs and extensions stay linear.
  const many = Array.from({ length: 3000 }, (_, i) => dns(`h${i}.example`));
  same(craftCsr({ key: ecKey, attributes: [extensionRequest(san(...many))] }), 'many SANs');
  const manyExt = Array.from({ length: 3000 }, (_, i) => extension(`1.2.3.${i}`, new Uint8Array([5, 0])));
  same(craftCsr({ key: ecKey, attributes: [extensionRequest(...manyExt)] }), 'many extensions');
});
