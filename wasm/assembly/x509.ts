// X.509 v3 building (RFC 5280 §4.1): the TBSCertificate from one packed parameter block, the
// signed Certificate from TBS + signature, and PEM. Signing itself happens elsewhere (p256.ts,
// ed25519.ts, or node:crypto), which is why TBS and Certificate are two calls.
//
// Parameter block (little-endian; every (off, len) pair is relative to the block start and must
// lie inside it). core/crypto/wasm/x509.ts writes it; keep the two in step.
//    0 u32 flags   1 cA | 2 pathLen present | 4 basicConstraints | 8 generate a
//                  subjectKeyIdentifier when the template has none (Go: template.IsCA) |
//                  16 the parent's SKI may replace the template's AKI | 64 SAN critical (SAN is also critical whenever
//                  the subject is empty, RFC 5280 §4.2.1.6). Bit 32 is unused: a SAN is
//                  only ever written from the entry list, never copied whole from a CSR.
//                  128 the subject is a CSR's: write it as Go's template from the parsed CSR
//                  marshals it (go-subject.ts), not byte-exact
//    4 u32 signature algorithm (SIG_* below)
//    8 f64 notBefore, Unix seconds (whole)       16 f64 notAfter
//   24 u32 pathLen
//   28 u32 keyUsage mask (bit n = KeyUsage bit n; 0 = no extension)
//   32 u32 extKeyUsage mask (bit i = i-th OID in Go's order, x509-extensions.ts; 0 = none)
//   36 serial (unsigned big-endian magnitude, off u32, len u32)
//   44 issuer Name DER      52 subject Name DER      60 SubjectPublicKeyInfo DER
//   68 the parent's (issuer certificate's) subjectKeyIdentifier; len 0: it has none
//   76 SAN: a list of entries { u8 kind (1 email, 2 DNS, 6 URI, 7 IP), u32 length, bytes },
//           written in Go's order whatever the list order, URIs as Go's url.URL.String() writes
//           the parsed text; len 0 = no SAN
//   84 the template's own SubjectKeyId (len 0: none)    92 the template's own AuthorityKeyId (len 0: none)
//  100 end of header
// Key identifiers as Go's CreateCertificate chooses them: AKI = the template's, replaced by the
// parent's SKI (flag 16) when the issuer Name differs from the subject byte for byte and the parent
// has one; SKI = the template's, or with flag 8 the SHA-1 of the key bits. Empty: not written.
import { putBitString, putBytes, putSmallInteger, putTime, putUnsignedInteger, wPos, wrap, writerInit, writerOverflowed } from './der-writer';
import { pemEncode, pemEncodedLength } from './pem';
import { goSubject, goSubjectLen } from './go-subject';
import { sha1 } from './sha1';
import { field, fLen, fPtr } from './param-block';
import { URL_OK, goUrlParse } from './go-url';
import {
  EKU_COUNT, SAN_DNS, SAN_EMAIL, SAN_IP, SAN_URI, putAuthorityKeyId, putBasicConstraints, putExtKeyUsage, putKeyUsage,
  putSubjectAltNameList, putSubjectKeyId,
} from './x509-extensions';

export const ERR_PARAMS = -1; // block too short, or a field outside it
export const ERR_SERIAL = -2; // zero, or longer than 20 octets as an INTEGER
export const ERR_TIME = -3; // not a whole number, year outside 0..9999, or notAfter <= notBefore
export const ERR_SIG_ALG = -4; // unknown signature algorithm selector
export const ERR_NAME = -5; // issuer or subject is not exactly one DER SEQUENCE
export const ERR_SPKI = -6; // not SEQUENCE { SEQUENCE, BIT STRING }
export const ERR_SAN = -7; // bad entry kind, non-IA5 text, a URI Go's url.Parse rejects, IP not 4/16 bytes
export const ERR_USAGE = -8; // keyUsage or extKeyUsage mask has unknown bits
export const ERR_PATH_LEN = -9; // pathLen without cA
export const ERR_OVERFLOW = -10; // output larger than the writer's buffer (should not happen)
export const ERR_TBS = -11; // assemble: TBS is not exactly one DER SEQUENCE
export const ERR_SUBJECT_UTF8 = -12; // flag 128: a subject value is not UTF-8 (Go's asn1 marshalling error)

const FLAG_CA: u32 = 1;
const FLAG_PATH_LEN: u32 = 2;
const FLAG_BC: u32 = 4;
const FLAG_SKI: u32 = 8;
const FLAG_AKI: u32 = 16;
const FLAG_SAN_CRITICAL: u32 = 64;
const FLAG_GO_SUBJECT: u32 = 128;
const HEADER: usize = 100;

// AlgorithmIdentifier DER by selector (1-based); RSA ones carry the NULL parameters RFC 4055 wants.
const SIG_ALGS: usize = memory.data<u8>([
  0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02, // 1 ecdsa-with-SHA256
  0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03, // 2 ecdsa-with-SHA384
  0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x04, // 3 ecdsa-with-SHA512
  0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, // 4 Ed25519
  0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00, // 5 sha256WithRSAEncryption
  0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c, 0x05, 0x00, // 6 sha384WithRSAEncryption
  0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d, 0x05, 0x00, // 7 sha512WithRSAEncryption
]);
const SIG_ALG_OFFSETS: usize = memory.data<u8>([0, 12, 24, 36, 43, 58, 73, 88]);
const SIG_ALG_COUNT: u32 = 7;

const SKI: usize = memory.data(20);

let outPtr: usize = 0;

/** Address of the output of the last successful x509BuildTbs / x509AssembleCertificate / pemEncodeCertificate. */
export function x509Output(): usize {
  return outPtr;
}

// One strict DER TLV header at base+off (definite, minimal length of at most 4 octets, low tag).
// Sets tlvContent/tlvEnd (offsets from base); false when malformed or running past `limit`.
let tlvContent: usize = 0;
let tlvEnd: usize = 0;
function readTlv(base: usize, off: usize, limit: usize, tag: u32): bool {
  if (off + 2 > limit || <u32>load<u8>(base + off) != tag) return false;
  let len = <usize>load<u8>(base + off + 1);
  let p = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n == 0 || n > 4 || p + n > limit || load<u8>(base + p) == 0) return false;
    len = 0;
    for (let i: usize = 0; i < n; i++) len = (len << 8) | <usize>load<u8>(base + p + i);
    p += n;
    if (len < 0x80) return false;
  }
  if (len > limit - p) return false;
  tlvContent = p;
  tlvEnd = p + len;
  return true;
}

/** Byte equality of two ranges (also issue-batch.ts's OID checks). */
export function sameBytes(a: usize, alen: usize, b: usize, blen: usize): bool {
  return alen == blen && memory.compare(a, b, alen) == 0;
}

function putSigAlg(sel: u32): void {
  const from = <usize>load<u8>(SIG_ALG_OFFSETS + sel - 1);
  const to = <usize>load<u8>(SIG_ALG_OFFSETS + sel);
  putBytes(SIG_ALGS + from, to - from);
}

// f64 Unix seconds -> i64, or i64.MIN_VALUE when not a whole number in a sane range.
function seconds(v: f64): i64 {
  if (!isFinite<f64>(v) || Math.floor(v) != v || Math.abs(v) > 1e12) return i64.MIN_VALUE;
  return <i64>v;
}

// Checks the SAN entry list and records each entry's offset (relative to list) at `offsets`.
function scanSanList(list: usize, len: usize, offsets: usize): i32 {
  let off: usize = 0;
  let count = 0;
  while (off < len) {
    if (len - off < 5) return ERR_SAN;
    const kind = <u32>load<u8>(list + off);
    const n = <usize>load<u32>(list + off + 1);
    if (n > len - off - 5) return ERR_SAN;
    const data = list + off + 5;
    if (kind == SAN_IP) {
      if (n != 4 && n != 16) return ERR_SAN;
    } else if (kind == SAN_DNS || kind == SAN_EMAIL || kind == SAN_URI) {
      for (let i: usize = 0; i < n; i++) if (load<u8>(data + i) >= 0x80) return ERR_SAN;
      // A URI is written as Go's url.URL.String() (x509-extensions.ts): it must be one url.Parse takes.
      if (kind == SAN_URI && goUrlParse(data, n) != URL_OK) return ERR_SAN;
    } else {
      return ERR_SAN;
    }
    store<u32>(offsets + (<usize>count << 2), <u32>off);
    count++;
    off += 5 + n;
  }
  return count;
}


/** Builds the TBSCertificate; returns its length (bytes at x509Output()) or a negative ERR_*. */
export function x509BuildTbs(params: usize, paramsLen: usize): i32 {
  if (paramsLen < HEADER) return ERR_PARAMS;
  const flags = load<u32>(params);
  const sigAlg = load<u32>(params + 4);
  const notBefore = seconds(load<f64>(params + 8));
  const notAfter = seconds(load<f64>(params + 16));
  const pathLen = load<u32>(params + 24);
  const kuMask = load<u32>(params + 28);
  const ekuMask = load<u32>(params + 32);
  if (sigAlg == 0 || sigAlg > SIG_ALG_COUNT) return ERR_SIG_ALG;
  if (notBefore == i64.MIN_VALUE || notAfter == i64.MIN_VALUE || notAfter <= notBefore) return ERR_TIME;
  if (kuMask >= (1 << 9) || ekuMask >= (1 << EKU_COUNT)) return ERR_USAGE;
  if ((flags & FLAG_PATH_LEN) != 0 && (flags & FLAG_CA) == 0) return ERR_PATH_LEN;

  if (!field(params, paramsLen, 36)) return ERR_PARAMS;
  const serial = fPtr;
  let serialLen = fLen;
  let skip: usize = 0;
  while (skip < serialLen && load<u8>(serial + skip) == 0) skip++;
  serialLen -= skip;
  if (serialLen == 0 || serialLen + (load<u8>(serial + skip) >> 7) > 20) return ERR_SERIAL;

  if (!field(params, paramsLen, 44)) return ERR_PARAMS;
  const issuer = fPtr;
  const issuerLen = fLen;
  if (!readTlv(issuer, 0, issuerLen, 0x30) || tlvEnd != issuerLen) return ERR_NAME;
  if (!field(params, paramsLen, 52)) return ERR_PARAMS;
  let subject = fPtr;
  let subjectLen = fLen;
  if (!readTlv(subject, 0, subjectLen, 0x30) || tlvEnd != subjectLen) return ERR_NAME;
  if (flags & FLAG_GO_SUBJECT) {
    subject = goSubject(subject, subjectLen);
    if (subject == 0) return ERR_SUBJECT_UTF8;
    subjectLen = goSubjectLen;
  }

  if (!field(params, paramsLen, 60)) return ERR_PARAMS;
  const spki = fPtr;
  const spkiLen = fLen;
  if (!readTlv(spki, 0, spkiLen, 0x30) || tlvEnd != spkiLen) return ERR_SPKI;
  if (!readTlv(spki, tlvContent, spkiLen, 0x30)) return ERR_SPKI;
  if (!readTlv(spki, tlvEnd, spkiLen, 0x03) || tlvEnd != spkiLen || tlvEnd == tlvContent) return ERR_SPKI;
  if (!field(params, paramsLen, 68)) return ERR_PARAMS;
  const parentSki = fPtr;
  const parentSkiLen = fLen;
  if (!field(params, paramsLen, 84)) return ERR_PARAMS;
  let ski = fPtr;
  let skiLen = fLen;
  if (!field(params, paramsLen, 92)) return ERR_PARAMS;
  let aki = fPtr;
  let akiLen = fLen;
  if ((flags & FLAG_AKI) != 0 && parentSkiLen > 0 && !sameBytes(subject, subjectLen, issuer, issuerLen)) {
    aki = parentSki;
    akiLen = parentSkiLen;
  }
  if (skiLen == 0 && (flags & FLAG_SKI) != 0) {
    // SHA-1 of the subjectPublicKey bits, without the unused-bits octet (RFC 5280 §4.2.1.2).
    sha1(spki + tlvContent + 1, tlvEnd - tlvContent - 1, SKI);
    ski = SKI;
    skiLen = 20;
  }

  if (!field(params, paramsLen, 76)) return ERR_PARAMS;
  const san = fPtr;
  const sanLen = fLen;
  let sanCount = 0;
  let sanOffsets: usize = 0;
  if (sanLen > 0) {
    sanOffsets = heap.alloc((sanLen / 5 + 1) << 2);
    sanCount = scanSanList(san, sanLen, sanOffsets);
    if (sanCount < 0) return sanCount;
  }

  // Every input is copied at most once, and each adds at most 6 header bytes per entry (SAN) or a
  // few fixed headers; 2x the block plus slack bounds the output. A URI's re-escaping can triple it.
  const cap = paramsLen * 2 + sanLen * 2 + 1024;
  const buf = heap.alloc(cap);
  writerInit(buf, cap);
  const tbsEnd = wPos();
  const hasExtensions = kuMask != 0 || ekuMask != 0 || (flags & FLAG_BC) != 0 || skiLen > 0 || akiLen > 0 || sanLen > 0;
  if (hasExtensions) {
    const extsEnd = wPos();
    if (sanLen > 0) {
      const critical = (flags & FLAG_SAN_CRITICAL) != 0 || subjectLen == 2;
      putSubjectAltNameList(san, sanOffsets, sanCount, critical);
    }
    if (akiLen > 0) putAuthorityKeyId(aki, akiLen);
    if (skiLen > 0) putSubjectKeyId(ski, skiLen);
    if (flags & FLAG_BC) putBasicConstraints((flags & FLAG_CA) != 0, (flags & FLAG_PATH_LEN) != 0, pathLen);
    if (ekuMask != 0) putExtKeyUsage(ekuMask);
    if (kuMask != 0) putKeyUsage(kuMask);
    wrap(0x30, extsEnd);
    wrap(0xa3, extsEnd);
  }
  putBytes(spki, spkiLen);
  putBytes(subject, subjectLen);
  const validityEnd = wPos();
  if (!putTime(notAfter) || !putTime(notBefore)) return ERR_TIME;
  wrap(0x30, validityEnd);
  putBytes(issuer, issuerLen);
  putSigAlg(sigAlg);
  putUnsignedInteger(serial + skip, serialLen);
  // version [0] EXPLICIT INTEGER 2 (v3)
  const versionEnd = wPos();
  putSmallInteger(2);
  wrap(0xa0, versionEnd);
  wrap(0x30, tbsEnd);
  if (writerOverflowed()) return ERR_OVERFLOW;
  outPtr = wPos();
  return <i32>(tbsEnd - outPtr);
}

/** Certificate ::= SEQUENCE { tbs, signatureAlgorithm, BIT STRING signature }; length or ERR_*. */
export function x509AssembleCertificate(tbs: usize, tbsLen: usize, sigAlg: u32, sig: usize, sigLen: usize): i32 {
  if (sigAlg == 0 || sigAlg > SIG_ALG_COUNT) return ERR_SIG_ALG;
  if (!readTlv(tbs, 0, tbsLen, 0x30) || tlvEnd != tbsLen) return ERR_TBS;
  const cap = tbsLen + sigLen + 64;
  const buf = heap.alloc(cap);
  writerInit(buf, cap);
  const end = wPos();
  putBitString(sig, sigLen, 0);
  putSigAlg(sigAlg);
  putBytes(tbs, tbsLen);
  wrap(0x30, end);
  if (writerOverflowed()) return ERR_OVERFLOW;
  outPtr = wPos();
  return <i32>(end - outPtr);
}

// "CERTIFICATE": the base64 and line layout are pem.ts's (one encoder in the module).
const CERTIFICATE_LABEL: usize = memory.data<u8>([0x43, 0x45, 0x52, 0x54, 0x49, 0x46, 0x49, 0x43, 0x41, 0x54, 0x45]);

/** PEM 'CERTIFICATE' (RFC 7468 strict: 64-character lines, LF) of DER; length of the text (at x509Output()). */
export function pemEncodeCertificate(der: usize, derLen: usize): i32 {
  const buf = heap.alloc(pemEncodedLength(11, derLen));
  const n = pemEncode(CERTIFICATE_LABEL, 11, der, derLen, buf);
  outPtr = buf;
  return <i32>n;
}
