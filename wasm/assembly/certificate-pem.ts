// status.certificate validation (the four rules of spec 01, Kubernetes' messages) and a full
// structural parse of each certificate (RFC 5280 §4.1) with the error texts of Go's x509 parser,
// ported from core/crypto/certificate-pem.ts and certificate.ts. Unlike the TS version there is no
// second parse by node's X509Certificate: this parse is the whole check (parse.ts says how they differ).
import {
  Reader, T_BIT_STRING, T_BOOLEAN, T_GENERALIZEDTIME, T_INTEGER, T_OCTET_STRING, T_OID, T_SEQUENCE, T_UTCTIME, bytesEqual,
  checkBitString, checkInteger, checkOid, decodeInt64, identifier, intValue, readTlv, tContent, tEnd, tStart, N_OTHER,
} from './der';
import { OidSet, extCount, extField, extList, parseExtensions } from './parse-extensions';
import { checkPublicKey, readAlgorithmIdentifier, readSubjectPublicKeyInfo } from './parse-keys';
import { parseCertificateName, parseSubjectAltNames, setEmitRecords } from './parse-names';
import { pemDecodeFirst, pemDer, pemDerLen, pemHeaders, pemLabel, pemLabelLen, pemRest } from './pem';
import {
  E_AKI, E_ALG_MISMATCH, E_BASIC_CONSTRAINTS, E_DUPLICATE_EXT, E_EXT_KEY_USAGE, E_INVALID_VERSION, E_KEY_USAGE,
  E_MALFORMED_ALG_ID, E_MALFORMED_CERTIFICATE, E_MALFORMED_EXTENSION, E_MALFORMED_EXTENSIONS, E_MALFORMED_ISSUER,
  E_MALFORMED_ISSUER_UID, E_MALFORMED_SERIAL, E_MALFORMED_SIGNATURE, E_MALFORMED_SIG_ALG_ID, E_MALFORMED_SPKI,
  E_MALFORMED_SUBJECT, E_MALFORMED_SUBJECT_UID, E_MALFORMED_TBS, E_MALFORMED_VALIDITY, E_MALFORMED_VERSION,
  E_NEGATIVE_SERIAL, E_PEM_HEADERS, E_PEM_LABEL, E_PEM_NO_BLOCK, E_PEM_ZERO_CERTS, E_SKI, R_CERT, begin, fail, failArgs, record,
} from './result';

const LABEL = memory.data<u8>([0x43, 0x45, 0x52, 0x54, 0x49, 0x46, 0x49, 0x43, 0x41, 0x54, 0x45]);
const OID_SAN = memory.data<u8>([0x55, 0x1d, 0x11]);
const OID_BASIC_CONSTRAINTS = memory.data<u8>([0x55, 0x1d, 0x13]);
const OID_KEY_USAGE = memory.data<u8>([0x55, 0x1d, 0x0f]);
const OID_EXT_KEY_USAGE = memory.data<u8>([0x55, 0x1d, 0x25]);
const OID_SKI = memory.data<u8>([0x55, 0x1d, 0x0e]);
const OID_AKI = memory.data<u8>([0x55, 0x1d, 0x23]);

/**
 * validateCertificatePem on [p, p+len): R_CERT records for every certificate in order, or the first
 * failure. Empty input is valid with no certificates (Kubernetes allows an empty status.certificate).
 */
export function validateCertificatePem(p: usize, len: usize): usize {
  const res = begin(len + 64);
  setEmitRecords(false);
  if (len == 0) return res;
  let rest = p;
  const stop = p + len;
  let blocks = 0;
  while (pemDecodeFirst(rest, stop - rest)) {
    if (!bytesEqual(pemLabel, pemLabelLen, LABEL, 11)) {
      failArgs(E_PEM_LABEL, <u32>pemLabel, <u32>pemLabelLen);
      return res;
    }
    if (pemHeaders != 0) {
      fail(E_PEM_HEADERS);
      return res;
    }
    blocks++;
    const next = pemRest;
    if (pemDerLen == 0) {
      fail(E_PEM_ZERO_CERTS);
      return res;
    }
    if (!splitCertificates(pemDer, pemDerLen)) return res;
    rest = next;
  }
  if (blocks == 0) fail(E_PEM_NO_BLOCK);
  return res;
}

/** Go's x509.ParseCertificates: certificates back to back, each fully parsed. */
function splitCertificates(der: usize, len: usize): bool {
  let pos = der;
  const end = der + len;
  while (pos < end) {
    if (!readTlv(pos, end) || identifier() != T_SEQUENCE) return fail(E_MALFORMED_CERTIFICATE);
    const one = tEnd;
    if (!parseCertificate(pos, one)) return false;
    if (!record(R_CERT, 2, <u32>pos, <u32>(one - pos))) return false;
    pos = one;
  }
  return true;
}

/** One certificate at [s, e) (exactly one element: splitCertificates cut it). */
export function parseCertificate(s: usize, e: usize): bool {
  const outer = Reader.over(s, e);
  if (!outer.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_CERTIFICATE);
  const cert = Reader.inner();
  if (!cert.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_TBS);
  const tbs = Reader.inner();

  let version: i64 = 1;
  const hasVersion = tbs.optional(0xa0);
  if (hasVersion < 0) return fail(E_MALFORMED_VERSION);
  if (hasVersion == 1) {
    const r = Reader.inner();
    if (!r.expect(T_INTEGER, N_OTHER) || !decodeInt64(tContent, tEnd - tContent) || !r.finish(N_OTHER)) return fail(E_MALFORMED_VERSION);
    if (intValue < 0) return fail(E_MALFORMED_VERSION);
    if (intValue > 2) return fail(E_INVALID_VERSION);
    version = intValue + 1;
  }
  if (!tbs.expect(T_INTEGER, N_OTHER) || !checkInteger(tContent, tEnd - tContent)) return fail(E_MALFORMED_SERIAL);
  if ((load<u8>(tContent) & 0x80) != 0) return fail(E_NEGATIVE_SERIAL);

  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_SIG_ALG_ID);
  const innerAlg = tStart;
  const innerAlgLen = tEnd - tStart;
  if (!cert.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_ALG_ID);
  if (!bytesEqual(tStart, tEnd - tStart, innerAlg, innerAlgLen)) return fail(E_ALG_MISMATCH);
  if (!readAlgorithmIdentifier(Reader.over(innerAlg, innerAlg + innerAlgLen))) return fail(E_MALFORMED_SIG_ALG_ID);

  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_ISSUER);
  if (!parseCertificateName()) return false;
  if (!validity(tbs)) return fail(E_MALFORMED_VALIDITY);
  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_SUBJECT);
  if (!parseCertificateName()) return false;
  if (!readSubjectPublicKeyInfo(tbs)) return fail(E_MALFORMED_SPKI);
  if (!checkPublicKey()) return false;

  if (version > 1) {
    if (tbs.optional(0x81) < 0) return fail(E_MALFORMED_ISSUER_UID);
    if (tbs.optional(0x82) < 0) return fail(E_MALFORMED_SUBJECT_UID);
  }
  let exts: u32 = 0;
  let list: usize = 0;
  if (version == 3) {
    const has = tbs.optional(0xa3);
    if (has < 0) return fail(E_MALFORMED_EXTENSIONS);
    if (has == 1) {
      if (!parseExtensions(tContent, tEnd)) return fail(E_MALFORMED_EXTENSION);
      exts = extCount;
      list = extList;
      const seen = new OidSet(exts);
      for (let i: u32 = 0; i < exts; i++) if (!seen.add(extField(i, 0), extField(i, 1))) return fail(E_DUPLICATE_EXT);
    }
  }
  if (!tbs.finish(N_OTHER)) return fail(E_MALFORMED_TBS);
  if (!cert.expect(T_BIT_STRING, N_OTHER) || !checkBitString(tContent, tEnd - tContent)) return fail(E_MALFORMED_SIGNATURE);
  if (!cert.finish(N_OTHER)) return fail(E_MALFORMED_CERTIFICATE);

  for (let i: u32 = 0; i < exts; i++) {
    const at = list + ((<usize>i * 5) << 2);
    if (!applyExtension(load<u32>(at), load<u32>(at, 4), load<u32>(at, 12), load<u32>(at, 16))) return false;
  }
  return true;
}

function validity(tbs: Reader): bool {
  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return false;
  const v = Reader.inner();
  if (!v.next()) return false;
  const a = identifier(), ac = tContent, ae = tEnd;
  if (!v.next()) return false;
  const b = identifier(), bc = tContent, be = tEnd;
  if (!v.finish(N_OTHER)) return false;
  return checkTime(a, ac, ae - ac) && checkTime(b, bc, be - bc);
}

@inline function digit(p: usize): i32 {
  const c = <i32>load<u8>(p) - 0x30;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at p as a number, or -1. */
function two(p: usize): i32 {
  const a = digit(p);
  const b = digit(p + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/** core/crypto/der.ts decodeTime's acceptance: YY/YYYY MMDDHHMMSS then Z or +-hhmm, a real date. */
function checkTime(id: u32, p: usize, len: usize): bool {
  let y: i32;
  let q: usize;
  if (id == T_UTCTIME) {
    if (len != 13 && len != 17) return false;
    y = two(p);
    if (y < 0) return false;
    y += y < 50 ? 2000 : 1900;
    q = p + 2;
  } else if (id == T_GENERALIZEDTIME) {
    if (len != 15 && len != 19) return false;
    const hi = two(p);
    const lo = two(p + 2);
    if (hi < 0 || lo < 0) return false;
    y = hi * 100 + lo;
    q = p + 4;
  } else return false;
  const mo = two(q), d = two(q + 2), h = two(q + 4), mi = two(q + 6), se = two(q + 8);
  if (mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return false;
  let dim = 31;
  if (mo == 4 || mo == 6 || mo == 9 || mo == 11) dim = 30;
  else if (mo == 2) dim = (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
  if (d > dim) return false;
  const z = q + 10;
  const rest = p + len - z;
  const zc = load<u8>(z);
  if (rest == 1) return zc == 0x5a;
  return (zc == 0x2b || zc == 0x2d) && two(z + 1) >= 0 && two(z + 3) >= 0;
}

/** The extension checks Go applies while parsing (certificate.ts applyExtension). */
function applyExtension(o: usize, olen: usize, v: usize, vlen: usize): bool {
  if (bytesEqual(o, olen, OID_SAN, 3)) return parseSubjectAltNames(v, vlen);
  if (bytesEqual(o, olen, OID_BASIC_CONSTRAINTS, 3)) {
    const r = Reader.over(v, v + vlen);
    if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_BASIC_CONSTRAINTS);
    const s = Reader.inner();
    if (s.optional(T_BOOLEAN) < 0) return fail(E_BASIC_CONSTRAINTS);
    const len = s.optional(T_INTEGER);
    if (len < 0) return fail(E_BASIC_CONSTRAINTS);
    if (len == 1 && !decodeInt64(tContent, tEnd - tContent)) return fail(E_BASIC_CONSTRAINTS);
    if (!s.finish(N_OTHER)) return fail(E_BASIC_CONSTRAINTS);
    return true;
  }
  if (bytesEqual(o, olen, OID_KEY_USAGE, 3)) {
    const r = Reader.over(v, v + vlen);
    if (!r.expect(T_BIT_STRING, N_OTHER) || !checkBitString(tContent, tEnd - tContent)) return fail(E_KEY_USAGE);
    return true;
  }
  if (bytesEqual(o, olen, OID_EXT_KEY_USAGE, 3)) {
    const r = Reader.over(v, v + vlen);
    if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_EXT_KEY_USAGE);
    const s = Reader.inner();
    while (!s.empty) {
      if (!s.expect(T_OID, N_OTHER) || !checkOid(tContent, tEnd - tContent)) return fail(E_EXT_KEY_USAGE);
    }
    return true;
  }
  if (bytesEqual(o, olen, OID_SKI, 3)) {
    const r = Reader.over(v, v + vlen);
    if (!r.expect(T_OCTET_STRING, N_OTHER)) return fail(E_SKI);
    return true;
  }
  if (bytesEqual(o, olen, OID_AKI, 3)) {
    const r = Reader.over(v, v + vlen);
    if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_AKI);
    if (Reader.inner().optional(0x80) < 0) return fail(E_AKI);
    return true;
  }
  return true;
}
