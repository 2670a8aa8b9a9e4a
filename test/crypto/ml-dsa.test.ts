// CSRs with ML-DSA keys (RFC 9881; Go 1.27's crypto/x509): both parsers (WASM and the TypeScript
// reference) report the key, proof of possession verifies pure ML-DSA with an empty context, and
// every refusal carries Go's message; issued certificates carry the CSR's SubjectPublicKeyInfo
// byte for byte under the CA's own signature.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify as nodeVerify, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import {
  CryptoError, createCertificate, createCsr, decodePemBlocks, encodePem, issueCertificate, issueCertificates, parseCertificate, parseCsr,
  parseCsrTypescript, validateCertificatePem, validateCertificatePemTypescript, verifyCsr, verifyCsrTypescript,
} from '../../core/crypto/index.js';
import { NULL, oid, seq } from '../../core/crypto/der-write.js';
import { opensslCertText, opensslVerify } from '../helpers/openssl.js';
import { cnName, craftCsr, craftMlDsaCsr, ML_DSA, mlDsaKeys, mlDsaSpki, OIDS, type MlDsaSet } from './csr-craft.js';

const SETS: MlDsaSet[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const FAILURE = 'x509: ML-DSA verification failure: ';

/** Both parsers, then both verifiers, refuse `pem` with `message` (parse errors and verify errors alike). */
function refused(pem: string, message: string): void {
  for (const [parse, verify] of [[parseCsr, verifyCsr], [parseCsrTypescript, verifyCsrTypescript]] as const) {
    assert.throws(() => verify(parse(pem)), (e: unknown) => {
      assert.ok(e instanceof CryptoError, String(e));
      assert.equal(e.message, message);
      return true;
    });
  }
}

const flip = (at: (length: number) => number) => (s: Uint8Array): Uint8Array => {
  const t = s.slice();
  t[at(t.length)]! ^= 0x01;
  return t;
};

describe('ML-DSA proof of possession', () => {
  for (const set of SETS) {
    test(`${set}: both parsers report the key and the algorithm; the signature verifies`, () => {
      const keys = mlDsaKeys(set);
      const pem = craftMlDsaCsr({ keys });
      const spki = mlDsaSpki(set, keys.publicKey);
      for (const [parse, verify] of [[parseCsr, verifyCsr], [parseCsrTypescript, verifyCsrTypescript]] as const) {
        const csr = parse(pem);
        assert.deepEqual({ ...csr.publicKey, spki: Buffer.from(csr.publicKey.spki) }, { algorithm: 'ml-dsa', parameterSet: set, spki: Buffer.from(spki) });
        assert.equal(csr.signatureAlgorithm, set);
        assert.deepEqual(verify(csr), { backend: '@noble/post-quantum' });
      }
    });

    test(`${set}: one flipped byte (challenge, response, hint count, signed data) fails with Go's texts`, () => {
      const keys = mlDsaKeys(set);
      refused(craftMlDsaCsr({ keys, tamper: flip(() => 0) }), `${FAILURE}mldsa: invalid signature`);
      refused(craftMlDsaCsr({ keys, tamper: flip((n) => n >> 1) }), `${FAILURE}mldsa: invalid signature`);
      // The hint counts end the signature: a count above ω is an encoding error in Go's sigDecode.
      refused(craftMlDsaCsr({ keys, tamper: (s) => { const t = s.slice(); t[t.length - 1] = 0xff; return t; } }), `${FAILURE}mldsa: invalid signature encoding`);
      const good = decodePemBlocks(craftMlDsaCsr({ keys, subject: cnName('node-a') }))[0]!.der.slice();
      const at = Buffer.from(good).indexOf('node-a', 0, 'latin1');
      good[at] = 'm'.charCodeAt(0); // "mode-a": the signed bytes changed, the signature did not
      refused(encodePem('CERTIFICATE REQUEST', good), `${FAILURE}mldsa: invalid signature`);
    });
  }

  test('a signature of the wrong length, a foreign key and a context all fail', () => {
    const keys = mlDsaKeys('ML-DSA-65');
    refused(craftMlDsaCsr({ keys, tamper: (s) => s.subarray(0, s.length - 1) }), `${FAILURE}mldsa: invalid signature length`);
    refused(craftMlDsaCsr({ keys, tamper: () => new Uint8Array(0) }), `${FAILURE}mldsa: invalid signature length`);
    // Signed by another ML-DSA-65 key than the one in the request.
    const other = mlDsaKeys('ML-DSA-65', 2);
    refused(craftMlDsaCsr({ keys: { ...other, publicKey: keys.publicKey } }), `${FAILURE}mldsa: invalid signature`);
    // Go verifies pure ML-DSA with an empty context (RFC 9881): a signature with a context fails.
    const der = decodePemBlocks(craftMlDsaCsr({ keys }))[0]!.der;
    const info = new Uint8Array((asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value[0]!.toBER());
    const withContext = ML_DSA['ML-DSA-65'].impl.sign(info, keys.secretKey, { context: new Uint8Array([1]) });
    refused(craftMlDsaCsr({ keys, tamper: () => withContext }), `${FAILURE}mldsa: invalid signature`);
  });

  test('signature algorithm and key disagree: parameter sets, key types', () => {
    const k65 = mlDsaKeys('ML-DSA-65');
    refused(craftMlDsaCsr({ keys: k65, signatureAlgorithm: seq(oid(ML_DSA['ML-DSA-44'].oid)) }),
      'x509: signature algorithm specifies an ML-DSA public key with ML-DSA-44 parameters, but have a public key with ML-DSA-65 parameters');
    refused(craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-87'), signatureAlgorithm: seq(oid(ML_DSA['ML-DSA-65'].oid)) }),
      'x509: signature algorithm specifies an ML-DSA public key with ML-DSA-65 parameters, but have a public key with ML-DSA-87 parameters');
    refused(craftMlDsaCsr({ keys: k65, signatureAlgorithm: seq(oid(OIDS.ecdsaWithSHA256)) }),
      'x509: signature algorithm specifies an ECDSA public key, but have public key of type *mldsa.PublicKey');
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    refused(craftCsr({ key: ec, signatureAlgorithm: seq(oid(ML_DSA['ML-DSA-65'].oid)) }),
      'x509: signature algorithm specifies an ML-DSA public key, but have public key of type *ecdsa.PublicKey');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    refused(craftCsr({ key: rsa, signatureAlgorithm: seq(oid(ML_DSA['ML-DSA-44'].oid)) }),
      'x509: signature algorithm specifies an ML-DSA public key, but have public key of type *rsa.PublicKey');
  });

  test('parameters present (RFC 9881: absent): an unknown signature algorithm; a key that does not parse', () => {
    const keys = mlDsaKeys('ML-DSA-65');
    refused(craftMlDsaCsr({ keys, signatureAlgorithm: seq(oid(ML_DSA['ML-DSA-65'].oid), NULL) }), 'x509: cannot verify signature: algorithm unimplemented');
    refused(craftMlDsaCsr({ keys, spki: mlDsaSpki('ML-DSA-65', keys.publicKey, NULL) }), 'x509: ML-DSA key encoded with illegal parameters');
    // mldsa.NewPublicKey's own text, unwrapped as Go's parsePublicKey returns it.
    refused(craftMlDsaCsr({ keys, spki: mlDsaSpki('ML-DSA-44', keys.publicKey) }), 'mldsa: invalid public key length');
    refused(craftMlDsaCsr({ keys, spki: mlDsaSpki('ML-DSA-65', keys.publicKey.subarray(1)) }), 'mldsa: invalid public key length');
  });
});

/** The TBSCertificate, its SubjectPublicKeyInfo and the signature of a certificate, read with asn1js (no plat code). */
function certificateParts(pem: string): { tbs: Uint8Array; spki: Uint8Array; signature: Uint8Array } {
  const der = decodePemBlocks(pem)[0]!.der;
  const cert = (asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value;
  const tbs = cert[0] as asn1js.Sequence;
  // version [0], serial, signature, issuer, validity, subject, subjectPublicKeyInfo
  const spki = tbs.valueBlock.value[6]!;
  return {
    tbs: new Uint8Array(tbs.toBER()),
    spki: new Uint8Array(spki.toBER()),
    signature: new Uint8Array((cert[2] as asn1js.BitString).valueBlock.valueHexView),
  };
}

describe('issuing for an ML-DSA key', () => {
  const now = Date.now();
  const cas = (['P-256', 'ed25519', 'rsa'] as const).map((type) => {
    const key: KeyObject = type === 'P-256' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey
      : type === 'ed25519' ? generateKeyPairSync('ed25519').privateKey : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const { certificatePem } = createCertificate({
      template: { subject: { commonName: `ca-${type}` }, notBefore: new Date(now - 3_600_000), notAfter: new Date(now + 86_400_000), isCA: true, keyUsage: ['cert sign', 'digital signature'] },
      publicKey: key, signer: key,
    });
    return { type, key, certificatePem };
  });
  const policy = { usages: ['digital signature', 'client auth'], notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000) };

  for (const set of SETS) {
    test(`${set}: the certificate carries the CSR's SubjectPublicKeyInfo unchanged, signed by each CA's own key`, () => {
      const keys = mlDsaKeys(set);
      const csrPem = craftMlDsaCsr({ keys, subject: cnName('pq-client') });
      for (const ca of cas) {
        const issued = issueCertificate(csrPem, { certificatePem: ca.certificatePem, privateKey: ca.key }, policy);
        assert.equal(issued.backend.verify, '@noble/post-quantum');
        const parts = certificateParts(issued.certificatePem);
        assert.deepEqual(Buffer.from(parts.spki), Buffer.from(mlDsaSpki(set, keys.publicKey)), `${ca.type}: SPKI`);
        const hash = ca.type === 'P-256' ? 'sha256' : ca.type === 'rsa' ? 'sha256' : null;
        assert.ok(nodeVerify(hash, parts.tbs, ca.type === 'P-256' ? { key: ca.key, dsaEncoding: 'der' } : ca.key, parts.signature), `${ca.type}: CA signature`);
        // status.certificate rules (both implementations) accept it; the parser reports the key.
        assert.equal(validateCertificatePem(issued.certificatePem).ok, true);
        assert.equal(validateCertificatePemTypescript(issued.certificatePem).ok, true);
        const parsed = parseCertificate(issued.certificatePem);
        assert.equal(parsed.publicKey.algorithm, 'ml-dsa');
        assert.equal(parsed.publicKey.parameterSet, set);
        assert.deepEqual(parsed.keyUsage, ['digital signature']);
      }
    });
  }

  test('openssl shows the ML-DSA-65 key of the issued certificate (its name from OpenSSL 3.5 on, its OID before)', () => {
    const ca = cas[0]!;
    const csrPem = craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65'), subject: cnName('pq-client') });
    const { certificatePem } = issueCertificate(csrPem, { certificatePem: ca.certificatePem, privateKey: ca.key }, policy);
    const text = opensslCertText(certificatePem);
    assert.match(text, /Public Key Algorithm: (ML-DSA-65|2\.16\.840\.1\.101\.3\.4\.3\.18)\n/);
    assert.match(text, /Subject: CN ?= ?pq-client/);
    assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
    assert.match(text, /X509v3 Extended Key Usage: \s*TLS Web Client Authentication\n/);
    if (text.includes('ML-DSA-65')) {
      // An OpenSSL that knows ML-DSA also checks the chain.
      const verified = opensslVerify(ca.certificatePem, certificatePem, { purpose: 'sslclient' });
      assert.equal(verified.status, 0, verified.stderr + verified.stdout);
    }
  });

  test('the batch gives ML-DSA requests the single path: same certificate for the same serial; failures per item', () => {
    const ca = cas[0]!;
    const keys = mlDsaKeys('ML-DSA-44');
    const good = craftMlDsaCsr({ keys });
    const bad = craftMlDsaCsr({ keys, tamper: flip(() => 3) });
    const ec = createCsr({ subject: { commonName: 'ec' }, privateKey: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey });
    const serials = [1, 2, 3].map((n) => new Uint8Array(16).fill(n));
    const caInput = { certificatePem: ca.certificatePem, privateKey: ca.key };
    const out = issueCertificates([good, bad, ec], caInput, policy, { serialNumbers: serials });
    const single = issueCertificate(good, caInput, policy, { serialNumber: serials[0]! });
    assert.ok('der' in out[0]!);
    assert.deepEqual(certificateParts(out[0].certificatePem).tbs, certificateParts(single.certificatePem).tbs);
    assert.ok('error' in out[1]! && out[1].error.message === `${FAILURE}mldsa: invalid signature`);
    assert.ok('der' in out[2]!);
  });
});
