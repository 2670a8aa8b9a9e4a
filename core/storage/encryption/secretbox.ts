// Upstream's secretbox provider (storage/value/encrypt/secretbox): NaCl's XSalsa20-Poly1305 with a
// 32-byte key, stored as a random 24-byte nonce then the box (its 16-byte tag first, as NaCl
// writes it). Like upstream, no additional data is bound: a value copied to another key still reads.
// @noble/ciphers does the cipher: node:crypto has no XSalsa20.
import { randomBytes } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { strictBase64, type Transformer } from './transformer.js';

const NONCE = 24;
const OVERHEAD = 16;

export function secretboxTransformer(key: Buffer): Transformer {
  if (key.length !== 32) throw new RangeError(`invalid secretbox key length ${key.length}`);
  const k = new Uint8Array(key);
  return {
    fromStorage(data) {
      const bytes = strictBase64(data);
      if (bytes.length < NONCE + OVERHEAD) throw new Error('the stored data was shorter than the required size');
      let out: Uint8Array;
      try {
        out = xsalsa20poly1305(k, bytes.subarray(0, NONCE)).decrypt(bytes.subarray(NONCE));
      } catch {
        // Upstream's text for secretbox.Open's failure, odd as it is.
        throw new Error('output array was not large enough for encryption');
      }
      return Buffer.from(out).toString('utf8');
    },
    toStorage(plain) {
      const nonce = randomBytes(NONCE);
      const box = xsalsa20poly1305(k, nonce).encrypt(Buffer.from(plain, 'utf8'));
      return Buffer.concat([nonce, box]).toString('base64');
    },
  };
}
