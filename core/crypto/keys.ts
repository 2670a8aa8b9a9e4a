// Key generation and the conversions every builder needs (PEM string or KeyObject in, KeyObject out).
// Backend: node:crypto. Private keys leave this module only as PKCS#8 PEM or KeyObject.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';

export type KeyType = 'ecdsa-p256' | 'ecdsa-p384' | 'rsa-2048' | 'rsa-3072' | 'rsa-4096' | 'ed25519';

export interface GeneratedKeyPair {
  /** PKCS#8 'PRIVATE KEY' PEM. */
  privateKeyPem: string;
  /** SubjectPublicKeyInfo 'PUBLIC KEY' PEM. */
  publicKeyPem: string;
  /** The private key. */
  keyObject: KeyObject;
}

function generate(type: KeyType): KeyObject {
  switch (type) {
    case 'ecdsa-p256':
      return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    case 'ecdsa-p384':
      return generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    case 'rsa-2048':
    case 'rsa-3072':
    case 'rsa-4096':
      return generateKeyPairSync('rsa', { modulusLength: Number(type.slice(4)), publicExponent: 65537 }).privateKey;
    case 'ed25519':
      return generateKeyPairSync('ed25519').privateKey;
    default:
      throw new RangeError(`unknown key type: ${String(type)}`);
  }
}

/**
 * The KeyObject handed out is read back from the generated key's PKCS#8, never the generated one:
 * Node 20 deadlocks (the process hangs for ever) when a garbage collection during a JWK export of a
 * key from generateKeyPairSync finalises that key's generation job, which takes the lock the
 * export holds. The WASM signers export JWKs of the keys they are given.
 */
export function generateKeyPair(type: KeyType = 'ecdsa-p256'): GeneratedKeyPair {
  const privateKeyPem = generate(type).export({ type: 'pkcs8', format: 'pem' }).toString();
  const keyObject = createPrivateKey(privateKeyPem);
  return {
    privateKeyPem,
    publicKeyPem: createPublicKey(keyObject).export({ type: 'spki', format: 'pem' }).toString(),
    keyObject,
  };
}

/** A private KeyObject from a KeyObject or PEM (PKCS#8, PKCS#1 'RSA PRIVATE KEY', SEC1 'EC PRIVATE KEY'). */
export function toPrivateKey(key: KeyObject | string): KeyObject {
  if (typeof key === 'string') {
    try {
      return createPrivateKey({ key, format: 'pem' });
    } catch {
      // OpenSSL's decoder message says nothing useful; never echo the input (it may be a key).
      throw new TypeError('expected a private key PEM (PKCS#8, PKCS#1 or SEC1)');
    }
  }
  if (typeof key === 'object' && key !== null && key.type === 'private') return key;
  throw new TypeError('expected a private key (KeyObject or PEM string)');
}

/** A public KeyObject from a private/public KeyObject, SPKI DER bytes or PEM. */
export function toPublicKey(key: KeyObject | Uint8Array | string): KeyObject {
  if (key instanceof Uint8Array) return createPublicKey({ key: Buffer.from(key), format: 'der', type: 'spki' });
  if (typeof key === 'string') return createPublicKey({ key, format: 'pem' });
  // createPublicKey takes a private KeyObject only: a public one is already the answer.
  if (typeof key === 'object' && key !== null && key.type === 'public') return key;
  if (typeof key === 'object' && key !== null && key.type === 'private') return createPublicKey(key);
  throw new TypeError('expected a public key (KeyObject, SPKI DER or PEM)');
}

/** The SubjectPublicKeyInfo DER of any key. */
export function spkiOf(key: KeyObject | Uint8Array | string): Uint8Array {
  const der = toPublicKey(key).export({ type: 'spki', format: 'der' });
  return new Uint8Array(der.buffer, der.byteOffset, der.byteLength);
}

/** True when both keys have the same public half (private keys are compared through it). */
export function samePublicKey(a: KeyObject | Uint8Array | string, b: KeyObject | Uint8Array | string): boolean {
  return Buffer.from(spkiOf(a)).equals(spkiOf(b));
}
