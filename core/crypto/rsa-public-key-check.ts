// What every RSA verification in Go (PKCS#1 v1.5 and PSS) checks of the key before the modular
// exponentiation: crypto/rsa's minimum size (Go 1.24), then crypto/internal/fips140/rsa's
// checkPublicKey. OpenSSL checks none of it: with e = 1 the
// "signature" is the padded digest itself, so a requester holding no private key at all would pass
// proof of possession (and anyone could sign for the certificate's key afterwards).
import { DerReader, TAG } from './der.js';
import { readSubjectPublicKeyInfo } from './public-key.js';

/**
 * Go's error text for an RSA public key its verifiers refuse, or undefined. `spki` has passed Go's
 * parse; `bits` is its modulus length.
 */
export function rsaPublicKeyError(spki: Uint8Array, bits: number): string | undefined {
  if (bits < 1024) return `crypto/rsa: ${bits}-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)`;
  const key = readSubjectPublicKeyInfo(new DerReader(spki)).key;
  const outer = new DerReader(key);
  const body = outer.inner(outer.expect(TAG.SEQUENCE, 'RSAPublicKey'));
  const n = body.content(body.expect(TAG.INTEGER, 'INTEGER'));
  const e = body.content(body.expect(TAG.INTEGER, 'INTEGER'));
  if ((n[n.length - 1]! & 1) === 0) return 'crypto/rsa: public modulus is even';
  // The parse left e positive and at most 8 bytes (Go's int).
  let exponent = 0n;
  for (const b of e) exponent = (exponent << 8n) | BigInt(b);
  if (exponent < 2n) return 'crypto/rsa: public exponent too small or negative';
  if ((exponent & 1n) === 0n) return 'crypto/rsa: public exponent is even';
  if (exponent > 2n ** 31n - 1n) return 'crypto/rsa: public exponent too large';
  return undefined;
}
