// status.certificate validation (the four rules of spec 01, Kubernetes' messages) and a full
// structural parse of each certificate (RFC 5280 §4.1) with the error texts of Go's x509 parser,
// ported from core/crypto/certificate-pem.ts and certificate.ts. Unlike the TS version there is no
// second parse by node's X509Certificate: this parse is the whole check (parse.ts says how they differ).
import { Reader, T_BIT_STRING, T_INTEGER, T_SEQUENCE, bytesEqual, checkBitString, checkInteger, decodeInt64, identifier, intValue, readTlv, tContent, tEnd, tStart, N_OTHER } from './der';
import { parseCertificateExtensions, processExtensions } from './cert-extensions';
import { parseValidity } from './cert-validity';
import { checkPublicKey, readAlgorithmIdentifier, readCertificateSpki } from './parse-keys';
import { parseCertificateName, setEmitRecords } from './parse-names';
import { pemDecodeFirst, pemDer, pemDerLen, pemHeaders, pemLabel, pemLabelLen, pemRest } from './pem';
import {
  E_ALG_MISMATCH, E_INVALID_VERSION, E_MALFORMED_ALG_ID, E_MALFORMED_CERTIFICATE, E_MALFORMED_EXTENSIONS, E_MALFORMED_ISSUER,
  E_MALFORMED_ISSUER_UID, E_MALFORMED_SERIAL, E_MALFORMED_SIGNATURE, E_MALFORMED_SIG_ALG_ID,
  E_MALFORMED_SUBJECT, E_MALFORMED_SUBJECT_UID, E_MALFORMED_TBS, E_MALFORMED_VALIDITY, E_MALFORMED_VERSION,
  E_NEGATIVE_SERIAL, E_PEM_HEADERS, E_PEM_LABEL, E_PEM_NO_BLOCK, E_PEM_ZERO_CERTS, R_CERT, begin, fail, failArgs, record,
} from './result';

const LABEL = memory.data<u8>([0x43, 0x45, 0x52, 0x54, 0x49, 0x46, 0x49, 0x43, 0x41, 0x54, 0x45]);

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
  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_VALIDITY);
  if (!parseValidity(tContent, tEnd)) return false;
  if (!tbs.expect(T_SEQUENCE, N_OTHER)) return fail(E_MALFORMED_SUBJECT);
  if (!parseCertificateName()) return false;
  if (!readCertificateSpki(tbs)) return false;
  if (!checkPublicKey()) return false;

  if (version > 1) {
    if (tbs.optional(0x81) < 0) return fail(E_MALFORMED_ISSUER_UID);
    if (tbs.optional(0x82) < 0) return fail(E_MALFORMED_SUBJECT_UID);
  }
  if (version == 3) {
    const has = tbs.optional(0xa3);
    if (has < 0) return fail(E_MALFORMED_EXTENSIONS);
    // Go processes the extensions before it reads the signature, so their errors win over its.
    if (has == 1 && (!parseCertificateExtensions(tContent, tEnd) || !processExtensions())) return false;
  }
  if (!tbs.finish(N_OTHER)) return fail(E_MALFORMED_TBS);
  if (!cert.expect(T_BIT_STRING, N_OTHER) || !checkBitString(tContent, tEnd - tContent)) return fail(E_MALFORMED_SIGNATURE);
  if (!cert.finish(N_OTHER)) return fail(E_MALFORMED_CERTIFICATE);
  return true;
}
