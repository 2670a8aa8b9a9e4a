// Hand-assembled CSRs for cases no tool produces (duplicate extensions, wrong algorithm identifiers,
// broken keys). Not a test file itself: imported by the CSR tests.
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { encodePem } from '../../core/crypto/index.js';
import { bitString, NULL, octetString, oid, printableString, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';

export const OIDS = {
  sha256WithRSA: '1.2.840.113549.1.1.11',
  md5WithRSA: '1.2.840.113549.1.1.4',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ed25519: '1.3.101.112',
  san: '2.5.29.17',
  extensionRequest: '1.2.840.113549.1.9.14',
  cn: '2.5.4.3',
};

export const cnName = (cn: string): Uint8Array => seq(setOf(seq(oid(OIDS.cn), printableString(cn))));

export const extensionRequest = (...extensions: Uint8Array[]): Uint8Array =>
  seq(oid(OIDS.extensionRequest), setOf(seq(...extensions)));

export const extension = (id: string, value: Uint8Array): Uint8Array => seq(oid(id), octetString(value));

export interface CraftOptions {
  key: KeyObject;
  /** SPKI DER; default: the key's. */
  spki?: Uint8Array;
  subject?: Uint8Array;
  attributes?: Uint8Array[];
  /** AlgorithmIdentifier DER; default: matches the key. */
  signatureAlgorithm?: Uint8Array;
  /** Hash for node's sign(); default: matches the key. */
  hash?: string | null;
}

/** Builds and signs a CertificationRequest from parts; returns PEM. */
export function craftCsr(o: CraftOptions): string {
  const type = o.key.asymmetricKeyType;
  const spki = o.spki ?? new Uint8Array(createPublicKey(o.key).export({ type: 'spki', format: 'der' }));
  const info = seq(
    smallInteger(0),
    o.subject ?? cnName('crafted'),
    spki,
    tlv(0xa0, Buffer.concat((o.attributes ?? []).map((a) => Buffer.from(a)))),
  );
  const defaultAlg = type === 'rsa' ? seq(oid(OIDS.sha256WithRSA), NULL) : type === 'ed25519' ? seq(oid(OIDS.ed25519)) : seq(oid(OIDS.ecdsaWithSHA256));
  const hash = o.hash !== undefined ? o.hash : type === 'ed25519' ? null : 'sha256';
  const signature = sign(hash, info, o.key);
  return encodePem('CERTIFICATE REQUEST', seq(info, o.signatureAlgorithm ?? defaultAlg, bitString(signature)));
}

export type MlDsaSet = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';

export const ML_DSA: Readonly<Record<MlDsaSet, { oid: string; impl: typeof ml_dsa44 }>> = {
  'ML-DSA-44': { oid: '2.16.840.1.101.3.4.3.17', impl: ml_dsa44 },
  'ML-DSA-65': { oid: '2.16.840.1.101.3.4.3.18', impl: ml_dsa65 },
  'ML-DSA-87': { oid: '2.16.840.1.101.3.4.3.19', impl: ml_dsa87 },
};

export interface MlDsaKeys {
  set: MlDsaSet;
  publicKey: Uint8Array;
  secretKey: Uint8Array;
}

// Key generation costs milliseconds: one key per set and seed for the whole test process.
const mlDsaKeyCache = new Map<string, MlDsaKeys>();

/** A deterministic ML-DSA key pair (the 32-byte seed filled with `seedByte`). */
export function mlDsaKeys(set: MlDsaSet, seedByte = 1): MlDsaKeys {
  const id = `${set}/${seedByte}`;
  let keys = mlDsaKeyCache.get(id);
  if (keys === undefined) mlDsaKeyCache.set(id, (keys = { set, ...ML_DSA[set].impl.keygen(new Uint8Array(32).fill(seedByte)) }));
  return keys;
}

/** RFC 9881 SubjectPublicKeyInfo: the set's OID, parameters absent (or `params`), the raw key in the BIT STRING. */
export const mlDsaSpki = (set: MlDsaSet, publicKey: Uint8Array, params?: Uint8Array): Uint8Array =>
  seq(seq(oid(ML_DSA[set].oid), ...(params ? [params] : [])), bitString(publicKey));

export interface MlDsaCraftOptions {
  keys: MlDsaKeys;
  /** SPKI DER; default: the keys' RFC 9881 form. */
  spki?: Uint8Array;
  subject?: Uint8Array;
  attributes?: Uint8Array[];
  /** AlgorithmIdentifier DER; default: the keys' set, parameters absent. */
  signatureAlgorithm?: Uint8Array;
  /** Changes the signature before it is written (tamper tests). */
  tamper?: (signature: Uint8Array) => Uint8Array;
}

/** Builds a CertificationRequest with an ML-DSA key, signed with pure ML-DSA and an empty context (as Go signs); returns PEM. */
export function craftMlDsaCsr(o: MlDsaCraftOptions): string {
  const info = seq(
    smallInteger(0),
    o.subject ?? cnName('crafted'),
    o.spki ?? mlDsaSpki(o.keys.set, o.keys.publicKey),
    tlv(0xa0, Buffer.concat((o.attributes ?? []).map((a) => Buffer.from(a)))),
  );
  let signature: Uint8Array = ML_DSA[o.keys.set].impl.sign(info, o.keys.secretKey);
  if (o.tamper) signature = o.tamper(signature);
  return encodePem('CERTIFICATE REQUEST', seq(info, o.signatureAlgorithm ?? seq(oid(ML_DSA[o.keys.set].oid)), bitString(signature)));
}
