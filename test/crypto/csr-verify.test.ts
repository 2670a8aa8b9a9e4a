// Proof of possession: tamper tests (one flipped byte) and algorithm cases, each with Go's message.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CryptoError, decodePemBlocks, encodePem, parseCsr, verifyCsr } from '../../core/crypto/index.js';
import { NULL, oid, seq } from '../../core/crypto/der-write.js';
import { opensslCsr, type OpensslKeyType } from '../helpers/openssl.js';
import { craftCsr, OIDS } from './csr-craft.js';

const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';

function rejects(pem: string, message: string): void {
  const csr = parseCsr(pem);
  assert.throws(() => verifyCsr(csr), (e: unknown) => {
    assert.ok(e instanceof CryptoError, String(e));
    assert.equal(e.message, message);
    return true;
  });
}

function mutate(pem: string, f: (der: Uint8Array) => void): string {
  const der = new Uint8Array(decodePemBlocks(pem)[0]!.der);
  f(der);
  return encodePem('CERTIFICATE REQUEST', der);
}

/** Replaces the first occurrence of `from` (ASCII) by `to` of the same length. */
function replaceAscii(der: Uint8Array, from: string, to: string): void {
  const at = Buffer.from(der).indexOf(from, 0, 'latin1');
  assert.ok(at >= 0, `${from} not found`);
  der.set(Buffer.from(to, 'latin1'), at);
}

const tamperCases: { id: string; keyType: OpensslKeyType; sigopt?: string[]; message: string }[] = [
  { id: 'rsa-2048', keyType: 'rsa-2048', message: 'crypto/rsa: verification error' },
  { id: 'rsa-pss', keyType: 'rsa-2048', sigopt: ['rsa_padding_mode:pss', 'rsa_pss_saltlen:digest'], message: 'crypto/rsa: verification error' },
  { id: 'ec-p256', keyType: 'ec-p256', message: 'x509: ECDSA verification failure' },
  { id: 'ec-p384', keyType: 'ec-p384', message: 'x509: ECDSA verification failure' },
  { id: 'ed25519', keyType: 'ed25519', message: 'x509: Ed25519 verification failure' },
];

for (const c of tamperCases) {
  test(`tamper ${c.id}: one byte of the signature, one byte of the subject`, () => {
    const { csrPem } = opensslCsr({ keyType: c.keyType, subject: '/CN=tamper-me/O=org', ...(c.sigopt ? { sigopt: c.sigopt } : {}) });
    verifyCsr(parseCsr(csrPem));
    // The last byte of the DER is the last signature byte.
    rejects(mutate(csrPem, (d) => (d[d.length - 1]! ^= 0x01)), c.message);
    rejects(mutate(csrPem, (d) => replaceAscii(d, 'tamper-me', 'tamper-mf')), c.message);
    // The subject change is visible to parseCsr: the tampered CSR still parses.
    assert.equal(parseCsr(mutate(csrPem, (d) => replaceAscii(d, 'tamper-me', 'tamper-mf'))).commonName, 'tamper-mf');
  });
}

test('Ed448 parses but cannot be verified (Go has no Ed448)', () => {
  const { csrPem } = opensslCsr({ keyType: 'ed448', subject: '/CN=ed448' });
  const csr = parseCsr(csrPem);
  assert.equal(csr.publicKey.algorithm, 'ed448');
  assert.equal(csr.signatureAlgorithm, 'Ed448');
  rejects(csrPem, UNIMPLEMENTED);
});

test('RSA-PSS with a salt other than the hash length is unimplemented (Go profile)', () => {
  const { csrPem } = opensslCsr({ keyType: 'rsa-2048', subject: '/CN=pss', sigopt: ['rsa_padding_mode:pss', 'rsa_pss_saltlen:max'] });
  assert.equal(parseCsr(csrPem).signatureAlgorithm, 'rsassa-pss');
  rejects(csrPem, UNIMPLEMENTED);
});

test('RSA keys under 1024 bits are refused with Go 1.24 text', () => {
  const { csrPem } = opensslCsr({ keyType: 'rsa-512', subject: '/CN=small' });
  rejects(csrPem, 'crypto/rsa: 512-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)');
});

const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ecKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const edKey = generateKeyPairSync('ed25519').privateKey;

test('crafted CSRs verify when consistent', () => {
  for (const key of [rsaKey, ecKey, edKey]) verifyCsr(parseCsr(craftCsr({ key })));
});

test('signature algorithm and key type disagree', () => {
  rejects(
    craftCsr({ key: rsaKey, signatureAlgorithm: seq(oid(OIDS.ecdsaWithSHA256)) }),
    'x509: signature algorithm specifies an ECDSA public key, but have public key of type *rsa.PublicKey',
  );
  rejects(
    craftCsr({ key: ecKey, signatureAlgorithm: seq(oid(OIDS.sha256WithRSA), NULL) }),
    'x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey',
  );
  rejects(
    craftCsr({ key: edKey, signatureAlgorithm: seq(oid(OIDS.ecdsaWithSHA256)) }),
    'x509: signature algorithm specifies an ECDSA public key, but have public key of type ed25519.PublicKey',
  );
});

test('MD5, unknown OIDs and Ed25519 with parameters', () => {
  rejects(craftCsr({ key: rsaKey, hash: 'md5', signatureAlgorithm: seq(oid(OIDS.md5WithRSA), NULL) }), 'x509: cannot verify signature: insecure algorithm MD5-RSA');
  const unknown = craftCsr({ key: ecKey, signatureAlgorithm: seq(oid('1.2.3.4')) });
  assert.equal(parseCsr(unknown).signatureAlgorithm, '1.2.3.4');
  rejects(unknown, UNIMPLEMENTED);
  rejects(craftCsr({ key: edKey, signatureAlgorithm: seq(oid(OIDS.ed25519), NULL) }), UNIMPLEMENTED);
});

test('verifyCsr never trusts fields of a copied object: it re-reads the DER', () => {
  const { csrPem } = opensslCsr({ keyType: 'ec-p256', subject: '/CN=copy' });
  const csr = parseCsr(csrPem);
  verifyCsr({ ...csr });
  const other = parseCsr(opensslCsr({ keyType: 'ec-p256', subject: '/CN=other' }).csrPem);
  // Swapping in another key does not change what is verified.
  verifyCsr({ ...csr, publicKey: other.publicKey });
  const der = new Uint8Array(csr.der);
  der[der.length - 1]! ^= 1;
  assert.throws(() => verifyCsr({ ...csr, der }), { message: 'x509: ECDSA verification failure' });
});
