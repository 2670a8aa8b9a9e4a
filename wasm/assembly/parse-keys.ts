// AlgorithmIdentifier, SubjectPublicKeyInfo and Go's per-algorithm key checks (DSA's; ML-DSA's as of Go
// 1.27), ported from core/crypto/public-key.ts. Whether an EC point lies on its curve is checked here for P-256 (with
// p256-point.ts); for P-224/384/521 an R_EC_POINT record asks JS to check it (see parse.ts).
import {
  Reader, T_BIT_STRING, T_INTEGER, T_OID, T_SEQUENCE, bytesEqual, checkBitString, checkOid, identifier, readTlv, rightAlign,
  tContent, tEnd, tStart, N_ALGORITHM_IDENTIFIER, N_BIT_STRING, N_OBJECT_IDENTIFIER, N_OTHER, N_PUBLIC_KEY_INFO, N_SUBJECT_PUBLIC_KEY_INFO,
} from './der';
import {
  E_DSA_KEY, E_DSA_PARAMS, E_DSA_SIGN, E_EC_CURVE, E_EC_PARAMS, E_MALFORMED_OID, E_MALFORMED_PARAMETERS, E_MALFORMED_SPKI, E_SPKI_ALGORITHM, E_SPKI_KEY, E_EC_POINT, E_ED25519_PARAMS, E_ED25519_SIZE, E_MLDSA_PARAMS, E_MLDSA_SIZE, E_RSA_EXPONENT,
  E_RSA_EXPONENT_SIGN, E_RSA_INVALID, E_RSA_MODULUS, E_RSA_MODULUS_SIGN, E_RSA_NULL, E_RSA_TRAILING, R_EC_POINT, fail, record,
} from './result';
import { pDecode } from './p256-point';
import { Cb } from './cryptobyte';

// A projective point (3 x 32 bytes) for pDecode to write into.
const POINT_SCRATCH = memory.data(96);

export const OID_RSA = memory.data<u8>([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]);
const OID_EC = memory.data<u8>([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
const OID_ED25519 = memory.data<u8>([0x2b, 0x65, 0x70]);
const OID_ED448 = memory.data<u8>([0x2b, 0x65, 0x71]);
const OID_DSA = memory.data<u8>([0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01]);
const OID_P224 = memory.data<u8>([0x2b, 0x81, 0x04, 0x00, 0x21]);
const OID_P256 = memory.data<u8>([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);
const OID_P384 = memory.data<u8>([0x2b, 0x81, 0x04, 0x00, 0x22]);
const OID_P521 = memory.data<u8>([0x2b, 0x81, 0x04, 0x00, 0x23]);
// id-ml-dsa-44/65/87 (RFC 9881): this 8-byte prefix, then 0x11, 0x12 or 0x13.
const OID_MLDSA_PREFIX = memory.data<u8>([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03]);

// readAlgorithmIdentifier's results.
export let algOid: usize = 0;
export let algOidLen: usize = 0;
/** The parameters element (absent: length 0). */
export let algParams: usize = 0;
export let algParamsLen: usize = 0;

export function readAlgorithmIdentifier(r: Reader): bool {
  if (!r.expect(T_SEQUENCE, N_ALGORITHM_IDENTIFIER)) return false;
  const inner = Reader.inner();
  if (!inner.expect(T_OID, N_OBJECT_IDENTIFIER)) return false;
  const o = tContent;
  const olen = tEnd - tContent;
  if (!checkOid(o, olen)) return false;
  let ps: usize = 0;
  let pl: usize = 0;
  if (!inner.empty) {
    if (!inner.next()) return false;
    ps = tStart;
    pl = tEnd - tStart;
  }
  if (!inner.finish(N_ALGORITHM_IDENTIFIER)) return false;
  algOid = o;
  algOidLen = olen;
  algParams = ps;
  algParamsLen = pl;
  return true;
}

// readSubjectPublicKeyInfo's results.
export let spkiStart: usize = 0;
export let spkiLen: usize = 0;
export let keyOid: usize = 0;
export let keyOidLen: usize = 0;
export let keyParams: usize = 0;
export let keyParamsLen: usize = 0;
/** subjectPublicKey, right-aligned as Go does. */
export let keyBits: usize = 0;
export let keyBitsLen: usize = 0;

export function readSubjectPublicKeyInfo(r: Reader): bool {
  if (!r.expect(T_SEQUENCE, N_PUBLIC_KEY_INFO)) return false;
  const s = tStart;
  const e = tEnd;
  const inner = Reader.inner();
  if (!readAlgorithmIdentifier(inner)) return false;
  if (!inner.expect(T_BIT_STRING, N_BIT_STRING)) return false;
  const c = tContent;
  const clen = tEnd - tContent;
  if (!checkBitString(c, clen)) return false;
  if (!inner.finish(N_SUBJECT_PUBLIC_KEY_INFO)) return false;
  setSpki(s, e, algOid, algOidLen, algParams, algParamsLen, c, clen);
  return true;
}

/**
 * A certificate's SPKI as Go's parseCertificate reads it, each step with its own text (ported from
 * core/crypto/public-key.ts readCertificateSpki); bytes after the parameters or the key are still
 * refused, as 'x509: malformed spki' (stricter than Go, like the rest of plat's DER).
 */
export function readCertificateSpki(r: Reader): bool {
  if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_SPKI);
  const s = tStart;
  const e = tEnd;
  const spki = new Cb(tContent, tEnd);
  if (!spki.read(T_SEQUENCE)) return fail(E_SPKI_ALGORITHM);
  const ai = Cb.inner();
  if (!ai.read(T_OID) || !checkOid(tContent, tEnd - tContent)) return fail(E_MALFORMED_OID);
  const o = tContent;
  const olen = tEnd - tContent;
  let ps: usize = 0;
  let pl: usize = 0;
  if (!ai.empty) {
    if (!ai.readAny()) return fail(E_MALFORMED_PARAMETERS);
    ps = tStart;
    pl = tEnd - tStart;
    if (!ai.empty) return fail(E_MALFORMED_SPKI);
  }
  if (!spki.read(T_BIT_STRING) || !checkBitString(tContent, tEnd - tContent)) return fail(E_SPKI_KEY);
  const c = tContent;
  const clen = tEnd - tContent;
  if (!spki.empty) return fail(E_MALFORMED_SPKI);
  setSpki(s, e, o, olen, ps, pl, c, clen);
  return true;
}

function setSpki(s: usize, e: usize, o: usize, olen: usize, ps: usize, pl: usize, c: usize, clen: usize): void {
  spkiStart = s;
  spkiLen = e - s;
  keyOid = o;
  keyOidLen = olen;
  keyParams = ps;
  keyParamsLen = pl;
  const unused = <u32>load<u8>(c);
  keyBits = unused == 0 ? c + 1 : rightAlign(c + 1, clen - 1, unused);
  keyBitsLen = clen - 1;
}

export const KEY_RSA: u32 = 1;
export const KEY_EC: u32 = 2;
export const KEY_ED25519: u32 = 3;
export const KEY_ED448: u32 = 4;
export const KEY_UNKNOWN: u32 = 5;
export const KEY_MLDSA: u32 = 6;

// checkPublicKey's results: kind, RSA modulus bits or EC field bits or the ML-DSA parameter set
// (44, 65, 87), curve index (1 P-224 .. 4 P-521).
export let keyKind: u32 = 0;
export let keySize: u32 = 0;
export let keyCurve: u32 = 0;

/** Go's per-algorithm checks on what readSubjectPublicKeyInfo read last. */
export function checkPublicKey(): bool {
  keySize = 0;
  keyCurve = 0;
  if (bytesEqual(keyOid, keyOidLen, OID_RSA, 9)) {
    if (keyParamsLen != 2 || load<u8>(keyParams) != 0x05 || load<u8>(keyParams + 1) != 0) return fail(E_RSA_NULL);
    if (!rsaModulusBits(keyBits, keyBitsLen)) return false;
    keyKind = KEY_RSA;
    return true;
  }
  if (bytesEqual(keyOid, keyOidLen, OID_EC, 7)) {
    if (!namedCurve(keyParams, keyParamsLen)) return false;
    const size = (keySize + 7) >> 3;
    if (keyBitsLen != 1 + 2 * <usize>size || load<u8>(keyBits) != 0x04) return fail(E_EC_POINT);
    if (keyCurve == 2) {
      // P-256, the hot path: the point check in WASM (p256-point.ts), same verdict as OpenSSL's.
      if (!pDecode(POINT_SCRATCH, keyBits, keyBitsLen)) return fail(E_EC_POINT);
    } else if (!record(R_EC_POINT, 3, <u32>spkiStart, <u32>spkiLen, keyCurve)) {
      return false;
    }
    keyKind = KEY_EC;
    return true;
  }
  if (bytesEqual(keyOid, keyOidLen, OID_ED25519, 3)) {
    if (keyParamsLen != 0) return fail(E_ED25519_PARAMS);
    if (keyBitsLen != 32) return fail(E_ED25519_SIZE);
    keyKind = KEY_ED25519;
    return true;
  }
  if (bytesEqual(keyOid, keyOidLen, OID_DSA, 7)) {
    // plat verifies no DSA signature (algorithm unimplemented, as Go): the key stays unknown.
    keyKind = KEY_UNKNOWN;
    return dsaKey();
  }
  const set = mlDsaSet(keyOid, keyOidLen);
  if (set != 0) {
    if (keyParamsLen != 0) return fail(E_MLDSA_PARAMS);
    const size: usize = set == 44 ? 1312 : set == 65 ? 1952 : 2592;
    if (keyBitsLen != size) return fail(E_MLDSA_SIZE);
    keySize = set;
    keyKind = KEY_MLDSA;
    return true;
  }
  keyKind = bytesEqual(keyOid, keyOidLen, OID_ED448, 3) ? KEY_ED448 : KEY_UNKNOWN;
  return true;
}

/** 44, 65 or 87 for the id-ml-dsa-* OIDs, else 0. */
function mlDsaSet(o: usize, n: usize): u32 {
  if (n != 9 || !bytesEqual(o, 8, OID_MLDSA_PREFIX, 8)) return 0;
  const last = load<u8>(o + 8);
  return last == 0x11 ? 44 : last == 0x12 ? 65 : last == 0x13 ? 87 : 0;
}

function namedCurve(p: usize, len: usize): bool {
  if (!readTlv(p, p + len) || identifier() != T_OID || !checkOid(tContent, tEnd - tContent)) {
    return fail(E_EC_PARAMS);
  }
  const o = tContent;
  const n = tEnd - tContent;
  if (bytesEqual(o, n, OID_P224, 5)) { keyCurve = 1; keySize = 224; }
  else if (bytesEqual(o, n, OID_P256, 8)) { keyCurve = 2; keySize = 256; }
  else if (bytesEqual(o, n, OID_P384, 5)) { keyCurve = 3; keySize = 384; }
  else if (bytesEqual(o, n, OID_P521, 5)) { keyCurve = 4; keySize = 521; }
  else return fail(E_EC_CURVE);
  return true;
}

/** INTEGER content [c, c+n) is minimally encoded (cryptobyte's ReadASN1Integer). */
function minimalInteger(c: usize, n: usize): bool {
  if (n == 0) return false;
  if (n == 1) return true;
  const a = load<u8>(c);
  const b = load<u8>(c + 1) & 0x80;
  return !((a == 0 && b == 0) || (a == 0xff && b != 0));
}

// cryptobyte's ReadASN1Integer: a minimally encoded INTEGER, else the caller's message.
let intP: usize = 0;
let intLen: usize = 0;
function readInteger(r: Reader, message: u32): bool {
  if (!r.expect(T_INTEGER, N_OTHER) || !minimalInteger(tContent, tEnd - tContent)) return fail(message);
  intP = tContent;
  intLen = tEnd - tContent;
  return true;
}

/** The INTEGER read last is zero or negative. */
function notPositive(): bool {
  return (load<u8>(tContent) & 0x80) != 0 || allZero(tContent, tEnd - tContent);
}

/**
 * Go's DSA key checks (core/crypto/public-key.ts checkDsaKey): Y an INTEGER, the parameters a
 * SEQUENCE of INTEGERs P, Q, G (nothing after them looked at), then all four positive.
 */
function dsaKey(): bool {
  const y = new Cb(keyBits, keyBits + keyBitsLen);
  if (!y.read(T_INTEGER) || !minimalInteger(tContent, tEnd - tContent)) return fail(E_DSA_KEY);
  let bad = notPositive();
  const outer = new Cb(keyParams, keyParams + keyParamsLen);
  if (!outer.read(T_SEQUENCE)) return fail(E_DSA_PARAMS);
  const s = Cb.inner();
  for (let i = 0; i < 3; i++) {
    if (!s.read(T_INTEGER) || !minimalInteger(tContent, tEnd - tContent)) return fail(E_DSA_PARAMS);
    bad = bad || notPositive();
  }
  return !bad || fail(E_DSA_SIGN);
}

function allZero(p: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) if (load<u8>(p + i) != 0) return false;
  return true;
}

/** RSAPublicKey ::= SEQUENCE { modulus, publicExponent } with Go's checks; sets keySize. */
function rsaModulusBits(p: usize, len: usize): bool {
  if (!readTlv(p, p + len) || identifier() != T_SEQUENCE) return fail(E_RSA_INVALID);
  const seqEnd = tEnd;
  const r = Reader.inner();
  if (!readInteger(r, E_RSA_MODULUS)) return false;
  const n = intP, nLen = intLen;
  if (!readInteger(r, E_RSA_EXPONENT)) return false;
  const e = intP, eLen = intLen;
  if (!r.empty || seqEnd != p + len) return fail(E_RSA_TRAILING);
  if (eLen > 8) return fail(E_RSA_EXPONENT);
  if ((load<u8>(n) & 0x80) != 0 || allZero(n, nLen)) return fail(E_RSA_MODULUS_SIGN);
  if ((load<u8>(e) & 0x80) != 0 || allZero(e, eLen)) return fail(E_RSA_EXPONENT_SIGN);
  let i: usize = 0;
  while (i < nLen && load<u8>(n + i) == 0) i++;
  keySize = <u32>((nLen - i - 1) * 8) + (32 - clz<u32>(load<u8>(n + i)));
  return true;
}

