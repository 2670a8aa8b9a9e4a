// SubjectPublicKeyInfo: Go's parsePublicKey checks and messages for the key types Go knows (RSA,
// ECDSA on P-224/256/384/521, Ed25519, DSA, ML-DSA-44/65/87 as of Go 1.27); other algorithms parse as
// 'unknown' without error, as in Go.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { DerReader, TAG, decodeBitString, decodeOid, identifierOf, readTlv, rightAlign, type Tlv } from './der.js';
import { CryptobyteString } from './cryptobyte.js';
import { CryptoError, step } from './errors.js';
import { mlDsaParameterSet, mlDsaPublicKeySize, type MlDsaParameterSet } from './ml-dsa.js';
import { OID } from './oids.js';

export type PublicKeyAlgorithm = 'rsa' | 'ec' | 'ed25519' | 'ed448' | 'ml-dsa' | 'unknown';

export interface PublicKeyInfo {
  algorithm: PublicKeyAlgorithm;
  /** RSA modulus length or EC field size. */
  bits?: number;
  /** 'P-224' | 'P-256' | 'P-384' | 'P-521' */
  curve?: string;
  /** The ML-DSA parameter set of an 'ml-dsa' key. */
  parameterSet?: MlDsaParameterSet;
  /** The SubjectPublicKeyInfo DER. */
  spki: Uint8Array;
}

/** The framing of an AlgorithmIdentifier: OID and the raw parameters element (empty when absent). */
export interface AlgorithmIdentifier {
  oid: string;
  params: Uint8Array;
}

export function readAlgorithmIdentifier(r: DerReader): AlgorithmIdentifier {
  const t = r.expect(TAG.SEQUENCE, 'AlgorithmIdentifier');
  const inner = r.inner(t);
  const oid = decodeOid(inner.content(inner.expect(TAG.OID, 'ObjectIdentifier')));
  const p = inner.empty ? undefined : inner.next();
  inner.finish('AlgorithmIdentifier');
  return { oid, params: p === undefined ? new Uint8Array(0) : inner.element(p) };
}

/** SPKI framing (DER structure only); `checkPublicKey` applies the per-algorithm rules afterwards. */
export interface RawPublicKey {
  spki: Uint8Array;
  algorithm: AlgorithmIdentifier;
  /** The subjectPublicKey bits, right-aligned as Go does. */
  key: Uint8Array;
  /** The subjectPublicKey BIT STRING content without its unused-bits octet (hashed for key identifiers). */
  bits: Uint8Array;
}

export function readSubjectPublicKeyInfo(r: DerReader): RawPublicKey {
  const t = r.expect(TAG.SEQUENCE, 'publicKeyInfo');
  const inner = r.inner(t);
  const algorithm = readAlgorithmIdentifier(inner);
  const bs = decodeBitString(inner.content(inner.expect(TAG.BIT_STRING, 'BitString')));
  inner.finish('SubjectPublicKeyInfo');
  return { spki: r.element(t), algorithm, key: rightAlign(bs), bits: bs.bytes };
}

/**
 * A certificate's SPKI as Go's parseCertificate reads it, each step with its own text; bytes after
 * the parameters or the key are still refused, as 'x509: malformed spki' (stricter than Go, like
 * the rest of plat's DER). wasm/assembly/parse-keys.ts readCertificateSpki is the port.
 */
export function readCertificateSpki(r: DerReader): RawPublicKey {
  const t = step('x509: malformed spki', () => r.expect(TAG.SEQUENCE, 'spki'));
  const spki = new CryptobyteString(r.buf, t.contentStart, t.end);
  const ai = spki.inner(spki.read(TAG.SEQUENCE) ?? fail('x509: malformed public key algorithm identifier'));
  const o = ai.read(TAG.OID) ?? fail('x509: malformed OID');
  const oid = step('x509: malformed OID', () => decodeOid(ai.content(o)));
  let params: Uint8Array = new Uint8Array(0);
  if (!ai.empty) {
    const p = ai.readAny() ?? fail('x509: malformed parameters');
    params = r.buf.subarray(p.start, p.end);
    if (!ai.empty) fail('x509: malformed spki');
  }
  const k = spki.read(TAG.BIT_STRING) ?? fail('x509: malformed subjectPublicKey');
  const bs = step('x509: malformed subjectPublicKey', () => decodeBitString(spki.content(k)));
  if (!spki.empty) fail('x509: malformed spki');
  return { spki: r.element(t), algorithm: { oid, params }, key: rightAlign(bs), bits: bs.bytes };
}

const fail = (message: string): never => {
  throw new CryptoError(message);
};

const NULL_PARAMS = Buffer.from([0x05, 0x00]);

const CURVES: Readonly<Record<string, { name: string; bits: number; nodeName: string }>> = {
  [OID.p224]: { name: 'P-224', bits: 224, nodeName: 'secp224r1' },
  [OID.p256]: { name: 'P-256', bits: 256, nodeName: 'prime256v1' },
  [OID.p384]: { name: 'P-384', bits: 384, nodeName: 'secp384r1' },
  [OID.p521]: { name: 'P-521', bits: 521, nodeName: 'secp521r1' },
};

/** Applies Go's per-algorithm key checks; throws CryptoError with Go's message. */
export function checkPublicKey(raw: RawPublicKey): PublicKeyInfo {
  const { oid, params } = raw.algorithm;
  switch (oid) {
    case OID.rsaEncryption:
      if (!Buffer.from(params).equals(NULL_PARAMS)) throw new CryptoError('x509: RSA key missing NULL parameters');
      return { algorithm: 'rsa', bits: rsaModulusBits(raw.key), spki: raw.spki };
    case OID.ecPublicKey: {
      const curve = namedCurve(params);
      const size = Math.ceil(curve.bits / 8);
      if (raw.key.length !== 1 + 2 * size || raw.key[0] !== 0x04 || !loads(raw.spki)) {
        throw new CryptoError('x509: failed to unmarshal elliptic curve point');
      }
      return { algorithm: 'ec', bits: curve.bits, curve: curve.name, spki: raw.spki };
    }
    case OID.ed25519:
      if (params.length !== 0) throw new CryptoError('x509: Ed25519 key encoded with illegal parameters');
      if (raw.key.length !== 32) throw new CryptoError('x509: wrong Ed25519 public key size');
      return { algorithm: 'ed25519', spki: raw.spki };
    case OID.dsa:
      checkDsaKey(raw.key, params);
      // plat verifies no DSA signature (algorithm unimplemented, as Go): the key stays 'unknown'.
      return { algorithm: 'unknown', spki: raw.spki };
    case OID.ed448:
      // Go has no Ed448: the key is reported but never verified (algorithm unimplemented).
      return { algorithm: 'ed448', spki: raw.spki };
    default: {
      const parameterSet = mlDsaParameterSet(oid);
      if (parameterSet === undefined) return { algorithm: 'unknown', spki: raw.spki };
      // RFC 9881 §2: parameters absent; then mldsa.NewPublicKey's own length check, its text unwrapped.
      if (params.length !== 0) throw new CryptoError('x509: ML-DSA key encoded with illegal parameters');
      if (raw.key.length !== mlDsaPublicKeySize(parameterSet)) throw new CryptoError('mldsa: invalid public key length');
      return { algorithm: 'ml-dsa', parameterSet, spki: raw.spki };
    }
  }
}

function namedCurve(params: Uint8Array): { name: string; bits: number } {
  let oid: string;
  try {
    const t = readTlv(params, 0);
    if (identifierOf(t) !== TAG.OID) throw new Error('not an OID');
    oid = decodeOid(params.subarray(t.contentStart, t.end));
  } catch {
    throw new CryptoError('x509: invalid ECDSA parameters');
  }
  const curve = CURVES[oid];
  if (curve === undefined) throw new CryptoError('x509: unsupported elliptic curve');
  return curve;
}

function loads(spki: Uint8Array): boolean {
  try {
    publicKeyObject(spki);
    return true;
  } catch {
    return false;
  }
}

/** RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } with Go's checks. */
function rsaModulusBits(key: Uint8Array): number {
  let seq: Tlv;
  try {
    seq = readTlv(key, 0);
    if (identifierOf(seq) !== TAG.SEQUENCE) throw new Error();
  } catch {
    throw new CryptoError('x509: invalid RSA public key');
  }
  const r = new DerReader(key, seq.contentStart, seq.end);
  const n = readInteger(r, 'x509: invalid RSA modulus');
  const e = readInteger(r, 'x509: invalid RSA public exponent');
  if (!r.empty || seq.end !== key.length) throw new CryptoError('x509: trailing data after RSA public key');
  if (e.length > 8) throw new CryptoError('x509: invalid RSA public exponent');
  if (n[0]! & 0x80 || n.every((b) => b === 0)) throw new CryptoError('x509: RSA modulus is not a positive number');
  if (e[0]! & 0x80 || e.every((b) => b === 0)) throw new CryptoError('x509: RSA public exponent is not a positive number');
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}

/**
 * Go's DSA key checks: Y an INTEGER (nothing after it is looked at), the parameters a SEQUENCE of
 * INTEGERs P, Q, G (likewise), then all four positive.
 */
function checkDsaKey(key: Uint8Array, params: Uint8Array): void {
  const y = CryptobyteString.of(key).read(TAG.INTEGER);
  if (y === undefined || !minimalInteger(key.subarray(y.contentStart, y.end))) throw new CryptoError('x509: invalid DSA public key');
  const outer = CryptobyteString.of(params);
  const seq = outer.read(TAG.SEQUENCE);
  const ints: Uint8Array[] = [key.subarray(y.contentStart, y.end)];
  const s = seq === undefined ? undefined : outer.inner(seq);
  for (let i = 0; i < 3 && s !== undefined; i++) {
    const t = s.read(TAG.INTEGER);
    if (t === undefined || !minimalInteger(s.content(t))) break;
    ints.push(s.content(t));
  }
  if (ints.length !== 4) throw new CryptoError('x509: invalid DSA parameters');
  if (ints.some((c) => c[0]! & 0x80 || c.every((b) => b === 0))) throw new CryptoError('x509: zero or negative DSA parameter');
}

const minimalInteger = (c: Uint8Array): boolean =>
  c.length > 0 && !(c.length > 1 && ((c[0] === 0 && !(c[1]! & 0x80)) || (c[0] === 0xff && c[1]! & 0x80)));

// cryptobyte's ReadASN1Integer: a minimally encoded INTEGER, else the caller's message.
function readInteger(r: DerReader, message: string): Uint8Array {
  try {
    const c = r.content(r.expect(TAG.INTEGER, 'INTEGER'));
    if (!minimalInteger(c)) throw new Error();
    return c;
  } catch {
    throw new CryptoError(message);
  }
}

export function publicKeyObject(spki: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
}
