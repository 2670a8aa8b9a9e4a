// Upstream's aescbc and aesgcm providers (storage/value/encrypt/aes), byte for byte in their
// binary part: CBC is a random 16-byte IV then the PKCS#7-padded ciphertext, unauthenticated (as
// upstream: a value copied to another key still reads); GCM is a random 12-byte nonce, then the
// ciphertext and its 16-byte tag, with the storage key as additional authenticated data.
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { strictBase64, type Transformer } from './transformer.js';

const BLOCK = 16;
const NONCE = 12;
const TAG = 16;
const SHORT = 'the stored data was shorter than the required size';

/** aes-128, -192 or -256 by the key's length (16, 24 or 32 bytes, checked by validation). */
function algorithm(mode: 'cbc' | 'gcm', key: Buffer): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new RangeError(`invalid AES key length ${key.length}`);
  return `aes-${key.length * 8}-${mode}`;
}

export function cbcTransformer(key: Buffer): Transformer {
  const alg = algorithm('cbc', key);
  return {
    fromStorage(data) {
      const bytes = strictBase64(data);
      if (bytes.length < BLOCK) throw new Error(SHORT);
      const body = bytes.subarray(BLOCK);
      if (body.length % BLOCK !== 0) throw new Error('the stored data is not a multiple of the block size');
      const decipher = createDecipheriv(alg, key, bytes.subarray(0, BLOCK)).setAutoPadding(false);
      const out = Buffer.concat([decipher.update(body), decipher.final()]);
      const pad = out.length > 0 ? out[out.length - 1]! : 0;
      if (pad === 0 || pad > out.length) throw new Error('invalid PKCS7 data (empty or not padded)');
      // Every padding byte is looked at, whatever the first mismatch: no early exit to time.
      let bad = 0;
      for (let i = out.length - pad; i < out.length; i++) bad |= out[i]! ^ pad;
      if (bad !== 0) throw new Error('invalid padding on input');
      return out.subarray(0, out.length - pad).toString('utf8');
    },
    toStorage(plain) {
      const iv = randomBytes(BLOCK);
      const cipher = createCipheriv(alg, key, iv);
      return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
    },
  };
}

export function gcmTransformer(key: Buffer): Transformer {
  const alg = algorithm('gcm', key) as CipherGCMTypes;
  return {
    fromStorage(data, authenticatedData) {
      const bytes = strictBase64(data);
      if (bytes.length < NONCE) throw new Error(SHORT);
      // Go's Open: too short for a tag fails as a wrong tag does.
      if (bytes.length < NONCE + TAG) throw new Error('cipher: message authentication failed');
      const decipher = createDecipheriv(alg, key, bytes.subarray(0, NONCE), { authTagLength: TAG });
      decipher.setAAD(authenticatedData);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
      const body = decipher.update(bytes.subarray(NONCE, bytes.length - TAG));
      try {
        return Buffer.concat([body, decipher.final()]).toString('utf8');
      } catch {
        throw new Error('cipher: message authentication failed');
      }
    },
    toStorage(plain, authenticatedData) {
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv(alg, key, nonce, { authTagLength: TAG });
      cipher.setAAD(authenticatedData);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    },
  };
}
