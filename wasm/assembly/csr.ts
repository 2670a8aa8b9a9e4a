// PKCS#10 CertificationRequest parsing (RFC 2986) with Kubernetes' ParseCSR semantics, ported from
// core/crypto/csr.ts: structure first in Go's field order, then meaning (key, subject, requested
// extensions, SANs). The result (result.ts) carries byte ranges of everything the verify step and
// the certificate builder need, so nothing is parsed twice.
import { Reader, T_BIT_STRING, T_INTEGER, T_OID, T_SEQUENCE, T_SET, bytesEqual, checkBitString, checkOid, decodeInt64, readTlv, tContent, tEnd, tStart,
  N_BIT_STRING, N_CERTIFICATE_REQUEST, N_INT, N_RAW_VALUES, N_TBS_CERTIFICATE_REQUEST, N_OTHER } from './der';
import { OidSet, extCount, extField, parseExtensions } from './parse-extensions';
import { algOid, algOidLen, algParams, algParamsLen, checkPublicKey, keyCurve, keyKind, keySize, readAlgorithmIdentifier, readSubjectPublicKeyInfo, spkiLen, spkiStart } from './parse-keys';
import { parseName, parseSubjectAltNames, setEmitRecords } from './parse-names';
import { pemDecodeFirst, pemDer, pemDerLen, pemLabel, pemLabelLen } from './pem';
import { E_DUPLICATE_REQUESTED_EXT, E_NOT_CSR_PEM, E_TRAILING, R_EXT, begin, clearError, fail, record, setHeader, status } from './result';

// Header words of a CSR result (see parse.ts; issue-batch.ts reads them too).
export const H_DER = 8; // DER address, length
export const H_TBS = 10; // CertificationRequestInfo element: address, length
export const H_SPKI = 12;
export const H_SIG = 14; // signature BIT STRING content after the unused-bits octet: address, length
export const H_SIG_UNUSED = 16;
export const H_SUBJECT = 17; // address, length
export const H_KEY = 19; // kind, bits, curve
export const H_SIG_ALG = 22; // OID address, length, params address, length

const LABEL = memory.data<u8>([0x43, 0x45, 0x52, 0x54, 0x49, 0x46, 0x49, 0x43, 0x41, 0x54, 0x45, 0x20, 0x52, 0x45, 0x51, 0x55, 0x45, 0x53, 0x54]);
const OID_EXTENSION_REQUEST = memory.data<u8>([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x0e]);
const OID_SAN = memory.data<u8>([0x55, 0x1d, 0x11]);

/** ParseCSR on PEM at [p, p+len): first block, label CERTIFICATE REQUEST. Returns the result address. */
export function parseCsrPem(p: usize, len: usize): usize {
  // Records never outnumber 1.5 words per DER byte, and DER is at most 3/4 of the PEM.
  const res = begin(len + 64);
  setEmitRecords(true);
  if (!pemDecodeFirst(p, len) || !bytesEqual(pemLabel, pemLabelLen, LABEL, 19)) {
    fail(E_NOT_CSR_PEM);
    return res;
  }
  parseDer(pemDer, pemDerLen);
  return res;
}

/** x509.ParseCertificateRequest on DER at [p, p+len). */
export function parseCsrDer(p: usize, len: usize): usize {
  const res = begin(2 * len + 64);
  setEmitRecords(true);
  parseDer(p, len);
  return res;
}

function parseDer(der: usize, len: usize): bool {
  setHeader(H_DER, <u32>der);
  setHeader(H_DER + 1, <u32>len);
  // 1. Structure, in Go's field order.
  const top = Reader.over(der, der + len);
  if (!top.expect(T_SEQUENCE, N_CERTIFICATE_REQUEST)) return false;
  const csr = Reader.inner();
  if (!csr.expect(T_SEQUENCE, N_TBS_CERTIFICATE_REQUEST)) return false;
  setHeader(H_TBS, <u32>tStart);
  setHeader(H_TBS + 1, <u32>(tEnd - tStart));
  const tbs = Reader.inner();
  if (!tbs.expect(T_INTEGER, N_INT) || !decodeInt64(tContent, tEnd - tContent)) return false;
  if (!tbs.next()) return false;
  const subjectStart = tStart;
  const subjectEnd = tEnd;
  if (!readSubjectPublicKeyInfo(tbs)) return false;
  setHeader(H_SPKI, <u32>spkiStart);
  setHeader(H_SPKI + 1, <u32>spkiLen);
  if (!tbs.expect(0xa0, N_RAW_VALUES)) return false;
  const attrsStart = tContent;
  const attrsEnd = tEnd;
  const attrs = Reader.inner();
  while (!attrs.empty) if (!attrs.next()) return false;
  if (!tbs.finish(N_TBS_CERTIFICATE_REQUEST)) return false;
  if (!readAlgorithmIdentifier(csr)) return false;
  setHeader(H_SIG_ALG, <u32>algOid);
  setHeader(H_SIG_ALG + 1, <u32>algOidLen);
  setHeader(H_SIG_ALG + 2, <u32>algParams);
  setHeader(H_SIG_ALG + 3, <u32>algParamsLen);
  if (!csr.expect(T_BIT_STRING, N_BIT_STRING) || !checkBitString(tContent, tEnd - tContent)) return false;
  setHeader(H_SIG, <u32>(tContent + 1));
  setHeader(H_SIG + 1, <u32>(tEnd - tContent - 1));
  setHeader(H_SIG_UNUSED, load<u8>(tContent));
  if (!csr.finish(N_CERTIFICATE_REQUEST)) return false;
  if (!top.empty) return fail(E_TRAILING);

  // 2. Meaning, in Go's order: public key, subject, extensions, SANs.
  if (!checkPublicKey()) return false;
  setHeader(H_KEY, keyKind);
  setHeader(H_KEY + 1, keySize);
  setHeader(H_KEY + 2, keyCurve);
  setHeader(H_SUBJECT, <u32>subjectStart);
  setHeader(H_SUBJECT + 1, <u32>(subjectEnd - subjectStart));
  if (!readTlv(subjectStart, subjectEnd) || !parseName()) return false;
  if (!requestedExtensions(attrsStart, attrsEnd)) return false;
  return status() == 0;
}

// The SAN extension value seen last (Go keeps the last; duplicates are rejected before that matters).
let sanValue: usize = 0;
let sanLen: usize = 0;

/** The requested subjectAltName extnValue of the CSR parsed last (address 0: none), for issue-batch.ts. */
export function requestedSanValue(): usize { return sanValue; }
export function requestedSanLength(): usize { return sanValue == 0 ? 0 : sanLen; }

/** Go's parseCSRExtensions: attributes that do not parse are skipped; a bad extensionRequest is an error. */
function requestedExtensions(start: usize, end: usize): bool {
  const seen = new OidSet(<u32>((end - start) / 7 + 1));
  sanValue = 0;
  let sawSan = false;
  const attrs = Reader.over(start, end);
  while (!attrs.empty) {
    attrs.next(); // cannot fail: every attribute was read once in the structure pass
    const s = tStart;
    const e = tEnd;
    // The first value of an extensionRequest attribute, or skip the attribute (Go ignores it).
    const r = Reader.over(s, e);
    if (!r.expect(T_SEQUENCE, N_OTHER)) { clearError(); continue; }
    const attr = Reader.inner();
    if (!attr.expect(T_OID, N_OTHER)) { clearError(); continue; }
    const o = tContent;
    const olen = tEnd - tContent;
    if (!checkOid(o, olen)) { clearError(); continue; }
    if (!attr.expect(T_SET, N_OTHER)) { clearError(); continue; }
    const values = Reader.inner();
    if (values.empty || !bytesEqual(o, olen, OID_EXTENSION_REQUEST, 9)) continue;
    if (!values.next()) { clearError(); continue; }
    const first = tStart;
    const firstEnd = tEnd;
    // Go's asn1.Unmarshal reads every value of the SET: one that does not read makes it skip the
    // whole attribute, so the extensions of the first value are not requested at all.
    let unreadable = false;
    while (!values.empty) if (!values.next()) { unreadable = true; break; }
    if (unreadable) { clearError(); continue; }

    if (!parseExtensions(first, firstEnd)) return false;
    for (let i: u32 = 0; i < extCount; i++) {
      const op = extField(i, 0);
      const ol = extField(i, 1);
      if (!seen.add(op, ol)) return fail(E_DUPLICATE_REQUESTED_EXT);
      if (!record(R_EXT, 5, op, ol, extField(i, 2), extField(i, 3), extField(i, 4))) return false;
      if (bytesEqual(op, ol, OID_SAN, 3)) {
        sanValue = extField(i, 3);
        sanLen = extField(i, 4);
        sawSan = true;
      }
    }
  }
  if (sawSan && !parseSubjectAltNames(sanValue, sanLen)) return false;
  return true;
}
