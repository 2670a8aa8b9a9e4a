// RSA public keys Go's verifiers refuse before any arithmetic (crypto/internal/fips140/rsa
// checkPublicKey): OpenSSL takes them, and with e = 1 a CSR "signed" by no private key at all
// (the signature is the padded digest itself) passed proof of possession and was issued.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { CryptoError, encodePem, issueCertificate, parseCsr, verifyCsr, verifyCsrTypescript, parseCsrTypescript } from '../../core/crypto/index.js';
import { NULL, bitString, oid, seq, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { makeCa } from '../helpers/certs.js';
import { OIDS, cnName } from './csr-craft.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = publicKey.export({ format: 'jwk' });
const modulus = new Uint8Array(Buffer.from(jwk.n!, 'base64url'));

const integer = (magnitude: Uint8Array): Uint8Array => {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const m = magnitude.subarray(i);
  return tlv(0x02, m[0]! & 0x80 ? Uint8Array.from([0, ...m]) : m);
};
const bigBytes = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(2 * Math.ceil(v.toString(16).length / 2), '0'), 'hex'));
const rsaSpki = (n: Uint8Array, e: bigint): Uint8Array =>
  seq(seq(oid('1.2.840.113549.1.1.1'), NULL), bitString(seq(integer(n), integer(bigBytes(e)))));

/** EMSA-PKCS1-v1_5 of SHA-256(data) for a 256-byte modulus: what s^1 mod n yields for s = EM. */
function pkcs1Sha256(data: Uint8Array): Uint8Array {
  const t = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), createHash('sha256').update(data).digest()]);
  return Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(256 - t.length - 3, 0xff), Buffer.from([0]), t]);
}

function csrWith(spki: Uint8Array, signature: (info: Uint8Array) => Uint8Array): string {
  const info = seq(smallInteger(0), cnName('system:node:forged'), spki, tlv(0xa0, new Uint8Array(0)));
  return encodePem('CERTIFICATE REQUEST', seq(info, seq(oid(OIDS.sha256WithRSA), NULL), bitString(signature(info))));
}

const evenModulus = Uint8Array.from(modulus);
evenModulus[evenModulus.length - 1]! &= 0xfe;

const cases: { id: string; spki: Uint8Array; signature: (info: Uint8Array) => Uint8Array; message: string }[] = [
  { id: 'e = 1, signature = the padded digest (no private key)', spki: rsaSpki(modulus, 1n), signature: pkcs1Sha256, message: 'crypto/rsa: public exponent too small or negative' },
  { id: 'e = 2', spki: rsaSpki(modulus, 2n), signature: pkcs1Sha256, message: 'crypto/rsa: public exponent is even' },
  { id: 'e = 65536', spki: rsaSpki(modulus, 65536n), signature: pkcs1Sha256, message: 'crypto/rsa: public exponent is even' },
  { id: 'e = 2^31 + 1', spki: rsaSpki(modulus, 2n ** 31n + 1n), signature: pkcs1Sha256, message: 'crypto/rsa: public exponent too large' },
  { id: 'even modulus', spki: rsaSpki(evenModulus, 65537n), signature: pkcs1Sha256, message: 'crypto/rsa: public modulus is even' },
];

for (const c of cases) {
  test(`RSA key Go refuses at CheckSignature: ${c.id}`, () => {
    const pem = csrWith(c.spki, c.signature);
    for (const [parse, verify] of [[parseCsr, verifyCsr], [parseCsrTypescript, verifyCsrTypescript]] as const) {
      const csr = parse(pem); // Go's parse accepts the key; only verification refuses it
      assert.throws(() => verify(csr), (e: unknown) => e instanceof CryptoError && e.message === c.message);
    }
    const ca = makeCa();
    const policy = { usages: ['client auth'], notBefore: new Date(), notAfter: new Date(Date.now() + 3600e3) };
    assert.throws(() => issueCertificate(pem, { certificatePem: ca.certificatePem, privateKey: ca.keyObject }, policy),
      (e: unknown) => e instanceof CryptoError && e.message === c.message);
  });
}

test('RSA keys Go verifies still verify: e = 3 and e = 65537', () => {
  for (const e of [3, 65537]) {
    const keys = e === 65537 ? { publicKey, privateKey } : generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: e });
    const spki = new Uint8Array(keys.publicKey.export({ type: 'spki', format: 'der' }));
    const pem = csrWith(spki, (info) => new Uint8Array(sign('sha256', info, keys.privateKey)));
    verifyCsr(parseCsr(pem));
    verifyCsrTypescript(parseCsrTypescript(pem));
  }
});
