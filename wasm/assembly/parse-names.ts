// X.501 Names and subjectAltName GeneralNames, checked as core/crypto/names.ts and general-names.ts
// check them (Go's rules and messages). Values go out as R_ATV / R_SAN ranges; JS builds the strings.
import { Reader, T_OID, T_SEQUENCE, T_SET, checkBitString, checkOid, decodeInt64, identifier, readTlv, tCls, tConstructed, tContent, tEnd, tNum, tStart, N_ATTRIBUTE_TYPE_AND_VALUE, N_OBJECT_IDENTIFIER } from './der';
import {
  E_ASN1_TIME, E_BMP_ODD, E_IA5, E_INVALID_RDN, E_NUMERIC, E_PRINTABLE, E_RDN_ATTRIBUTE, E_RDN_ATTRIBUTE_TYPE, E_RDN_ATTRIBUTE_VALUE,
  E_RDN_STRING, E_RDN_UNSUPPORTED, E_SAN, E_SANS, E_SAN_DNS, E_SAN_IP_LENGTH, E_SAN_RFC822, E_SAN_URI,
  E_SAN_URI_DOMAIN, E_SAN_URI_PARSE, E_SEQUENCE_TAG_MISMATCH, E_TAG_MISMATCH, E_UTF8, R_ATV, R_RDN, R_SAN, fail, failArgs, record,
} from './result';
import { URL_OK, goUrlHostIsDomain, goUrlParse, urlErrorAt, urlErrorLen, urlErrorUrlLen } from './go-url';
import { goAsn1TimeOk } from './go-asn1-time';

/** Whether parsers emit records (certificate validation only checks). */
export let emitRecords: bool = true;
export function setEmitRecords(on: bool): void {
  emitRecords = on;
}

// Go's isPrintable with '*' and '&' allowed, as its parser uses it (go-subject.ts: without them).
export function printable(c: u32): bool {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return true;
  switch (c) {
    case 0x20: case 0x27: case 0x28: case 0x29: case 0x2b: case 0x2c: case 0x2d: case 0x2e: case 0x2f:
    case 0x3a: case 0x3d: case 0x3f: case 0x2a: case 0x26:
      return true;
  }
  return false;
}

/** UTF-8 validity as TextDecoder's fatal mode (WHATWG) and Go's utf8.Valid define it. */
export function validUtf8(p: usize, len: usize): bool {
  let i: usize = 0;
  while (i < len) {
    const c = <u32>load<u8>(p + i);
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: usize;
    let lo: u32 = 0x80;
    let hi: u32 = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c == 0xe0) lo = 0xa0;
      else if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c == 0xf0) lo = 0x90;
      else if (c == 0xf4) hi = 0x8f;
    } else return false;
    if (len - i <= need) return false;
    const c1 = <u32>load<u8>(p + i + 1);
    if (c1 < lo || c1 > hi) return false;
    for (let k: usize = 2; k <= need; k++) {
      const ck = <u32>load<u8>(p + i + k);
      if (ck < 0x80 || ck > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

/** Checks an attribute value; returns its string tag (0x0c, 0x12, ...) or 0 for non-string values, -1 on error. */
function checkStringValue(cls: u32, constructed: bool, num: u32, p: usize, len: usize): i32 {
  if (constructed || cls != 0) return 0;
  switch (num) {
    case 0x13:
      for (let i: usize = 0; i < len; i++) if (!printable(load<u8>(p + i))) { fail(E_PRINTABLE); return -1; }
      return 0x13;
    case 0x16:
      for (let i: usize = 0; i < len; i++) if (load<u8>(p + i) >= 0x80) { fail(E_IA5); return -1; }
      return 0x16;
    case 0x12:
      for (let i: usize = 0; i < len; i++) {
        const c = load<u8>(p + i);
        if (!((c >= 0x30 && c <= 0x39) || c == 0x20)) { fail(E_NUMERIC); return -1; }
      }
      return 0x12;
    case 0x14:
      return 0x14;
    case 0x0c:
      if (!validUtf8(p, len)) { fail(E_UTF8); return -1; }
      return 0x0c;
    case 0x1e:
      if ((len & 1) != 0) { fail(E_BMP_ODD); return -1; }
      return 0x1e;
  }
  return 0;
}

/**
 * crypto/x509's parseASN1String takes a BMPString as UCS-2: surrogates (0xd800-0xdfff) and the
 * noncharacters 0xfffe, 0xffff and 0xfdd0-0xfdef are "invalid BMPString" (encoding/asn1, which reads
 * CSR subjects, lets them through).
 */
function ucs2(p: usize, len: usize): bool {
  for (let i: usize = 0; i + 1 < len; i += 2) {
    const u = (<u32>load<u8>(p + i) << 8) | <u32>load<u8>(p + i + 1);
    if (u == 0xfffe || u == 0xffff || (u >= 0xfdd0 && u <= 0xfdef) || (u >= 0xd800 && u <= 0xdfff)) return false;
  }
  return true;
}

/**
 * The Name at the element readTlv found last, already known to be a SEQUENCE, as Go's crypto/x509
 * parseName reads certificate Names: only the six string types, one text per failing step, nothing
 * after an attribute's value looked at.
 */
export function parseCertificateName(): bool {
  const rdns = Reader.inner();
  while (!rdns.empty) {
    if (!rdns.next() || identifier() != T_SET) return fail(E_INVALID_RDN);
    if (emitRecords && !record(R_RDN, 0)) return false;
    const atvs = Reader.inner();
    while (!atvs.empty) {
      if (!atvs.next() || identifier() != T_SEQUENCE) return fail(E_RDN_ATTRIBUTE);
      const atv = Reader.inner();
      if (!atv.next() || identifier() != T_OID || !checkOid(tContent, tEnd - tContent)) return fail(E_RDN_ATTRIBUTE_TYPE);
      const typeP = tContent;
      const typeLen = tEnd - tContent;
      // identifier() is 0xffffffff for high tag numbers, which Go's ReadAnyASN1 refuses.
      if (!atv.next() || identifier() == 0xffffffff) return fail(E_RDN_ATTRIBUTE_VALUE);
      const id = identifier();
      const vs = tStart, vc = tContent, ve = tEnd;
      const kind = checkStringValue(tCls, tConstructed, tNum, vc, ve - vc);
      if (kind < 0 || (kind == 0x1e && !ucs2(vc, ve - vc))) return failArgs(E_RDN_STRING, tNum);
      if (kind == 0) return failArgs(E_RDN_UNSUPPORTED, id);
      if (emitRecords && !record(R_ATV, 6, <u32>typeP, <u32>typeLen, <u32>vs, <u32>vc, <u32>ve, <u32>kind)) return false;
    }
  }
  return true;
}

/**
 * encoding/asn1 also decodes these non-string values of a CSR subject into the attribute's `any`
 * (Go refuses the CSR when they do not read); every other value (BOOLEAN, NULL, ENUMERATED, ...)
 * stays nil, unchecked.
 */
function checkOtherValue(cls: u32, constructed: bool, num: u32, p: usize, len: usize): bool {
  if (constructed || cls != 0) return true;
  if (num == 0x02) return decodeInt64(p, len);
  if (num == 0x03) return checkBitString(p, len);
  if (num == 0x06) return checkOid(p, len);
  if ((num == 0x17 || num == 0x18) && !goAsn1TimeOk(num, p, len)) return failArgs(E_ASN1_TIME, num, <u32>p, <u32>len);
  return true;
}

/** The Name at the element readTlv found last (must be a SEQUENCE, else Go's tags-don't-match text). */
export function parseName(): bool {
  if (identifier() != T_SEQUENCE) {
    return failArgs(E_TAG_MISMATCH, 16, tCls, tNum, <u32>(tEnd - tContent), tConstructed ? 1 : 0, 9 /* RDNSequence */, <u32>(tContent - tStart));
  }
  const rdns = Reader.inner();
  while (!rdns.empty) {
    if (!rdns.next()) return false;
    if (identifier() != T_SET) return fail(E_SEQUENCE_TAG_MISMATCH);
    if (emitRecords && !record(R_RDN, 0)) return false;
    const atvs = Reader.inner();
    while (!atvs.empty) {
      if (!atvs.next()) return false;
      if (identifier() != T_SEQUENCE) return fail(E_SEQUENCE_TAG_MISMATCH);
      const atv = Reader.inner();
      if (!atv.expect(T_OID, N_OBJECT_IDENTIFIER)) return false;
      const typeP = tContent;
      const typeLen = tEnd - tContent;
      if (!checkOid(typeP, typeLen)) return false;
      if (!atv.next()) return false;
      const vs = tStart, vc = tContent, ve = tEnd, vcls = tCls, vcons = tConstructed, vnum = tNum;
      if (!atv.finish(N_ATTRIBUTE_TYPE_AND_VALUE)) return false;
      const kind = checkStringValue(vcls, vcons, vnum, vc, ve - vc);
      if (kind < 0 || (kind == 0 && !checkOtherValue(vcls, vcons, vnum, vc, ve - vc))) return false;
      if (emitRecords && !record(R_ATV, 6, <u32>typeP, <u32>typeLen, <u32>vs, <u32>vc, <u32>ve, <u32>kind)) return false;
    }
  }
  return true;
}

function ia5(p: usize, len: usize): bool {
  for (let i: usize = 0; i < len; i++) if (load<u8>(p + i) >= 0x80) return false;
  return true;
}

/** subjectAltName extnValue at [p, p+len) (Go's parseSANExtension). */
export function parseSubjectAltNames(p: usize, len: usize): bool {
  if (!readTlv(p, p + len) || identifier() != T_SEQUENCE) return fail(E_SANS);
  const names = Reader.inner();
  while (!names.empty) {
    // cryptobyte's ReadAnyASN1 refuses high tag numbers (identifier() 0xffffffff).
    if (!names.next() || identifier() == 0xffffffff) return fail(E_SAN);
    const id = identifier();
    const c = tContent;
    const n = tEnd - tContent;
    if (id == 0x81) {
      if (!ia5(c, n)) return fail(E_SAN_RFC822);
    } else if (id == 0x82) {
      if (!ia5(c, n)) return fail(E_SAN_DNS);
    } else if (id == 0x86) {
      if (!ia5(c, n)) return fail(E_SAN_URI);
      // Go keeps a *url.URL: the text must parse, and a host must pass domainToReverseLabels.
      const r = goUrlParse(c, n);
      if (r != URL_OK) return failArgs(E_SAN_URI_PARSE, <u32>c, <u32>n, r, <u32>urlErrorAt, <u32>urlErrorLen, <u32>urlErrorUrlLen);
      if (!goUrlHostIsDomain()) return failArgs(E_SAN_URI_DOMAIN, <u32>c, <u32>n);
    } else if (id == 0x87) {
      if (n != 4 && n != 16) return failArgs(E_SAN_IP_LENGTH, <u32>n);
    } else {
      // Other GeneralName forms are ignored, as Go does.
      continue;
    }
    if (emitRecords && !record(R_SAN, 3, id, <u32>c, <u32>n)) return false;
  }
  return true;
}
