// A certificate's extensions as Go 1.23's parseCertificate reads them, ported from
// core/crypto/certificate-extensions.ts (the reference): the list with parseExtension's per-field
// texts and duplicates refused as they are met, then processExtensions in list order. Plat is
// stricter than Go in one way: bytes after an Extension's fields, or after the list inside [3].
import { Cb } from './cryptobyte';
import {
  Reader, T_BIT_STRING, T_BOOLEAN, T_INTEGER, T_OCTET_STRING, T_OID, T_SEQUENCE, boolValue, bytesEqual, checkBitString,
  checkOid, decodeBoolean, decodeInt64, tContent, tEnd, N_OTHER,
} from './der';
import { checkNameConstraints } from './name-constraints';
import { OidSet } from './parse-extensions';
import { parseSubjectAltNames } from './parse-names';
import {
  E_AIA, E_AKI, E_BASIC_CONSTRAINTS, E_CRL_DP, E_CRL_DPS, E_DUPLICATE_EXT, E_EXT_CRITICAL, E_EXT_KEY_USAGE, E_EXT_OID,
  E_EXT_VALUE, E_KEY_USAGE, E_MALFORMED_EXTENSION, E_MALFORMED_EXTENSIONS, E_POLICIES, E_SKI, fail,
} from './result';

// 2.5.29.x is 55 1d x; authorityInfoAccess is 1.3.6.1.5.5.7.1.1.
const OID_AIA = memory.data<u8>([0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01]);

// The list: 5 words per extension [oid addr, oid len, critical, value addr, value len].
let list: usize = 0;
let count: u32 = 0;

/** The content of the [3] element at [p, end): Extensions ::= SEQUENCE OF Extension. */
export function parseCertificateExtensions(p: usize, end: usize): bool {
  count = 0;
  // The smallest Extension is 7 bytes (30 05 06 01 xx 04 00).
  list = heap.alloc(((end - p) / 7 + 1) * 20);
  const outer = new Cb(p, end);
  if (!outer.read(T_SEQUENCE) || !outer.empty) return fail(E_MALFORMED_EXTENSIONS);
  const l = Cb.inner();
  const seen = new OidSet(<u32>((end - p) / 7 + 1));
  while (!l.empty) {
    if (!l.read(T_SEQUENCE)) return fail(E_MALFORMED_EXTENSION);
    const e = Cb.inner();
    if (!e.read(T_OID) || !checkOid(tContent, tEnd - tContent)) return fail(E_EXT_OID);
    const o = tContent, olen = tEnd - tContent;
    let critical = false;
    if (e.peek(T_BOOLEAN)) {
      if (!e.read(T_BOOLEAN) || !decodeBoolean(tContent, tEnd - tContent)) return fail(E_EXT_CRITICAL);
      critical = boolValue;
    }
    if (!e.read(T_OCTET_STRING)) return fail(E_EXT_VALUE);
    if (!e.empty) return fail(E_MALFORMED_EXTENSION);
    if (!seen.add(o, olen)) return fail(E_DUPLICATE_EXT);
    const at = list + ((<usize>count * 5) << 2);
    store<u32>(at, <u32>o);
    store<u32>(at, <u32>olen, 4);
    store<u32>(at, critical ? 1 : 0, 8);
    store<u32>(at, <u32>tContent, 12);
    store<u32>(at, <u32>(tEnd - tContent), 16);
    count++;
  }
  return true;
}

/** processExtensions over what parseCertificateExtensions read: the first refusal records Go's text. */
export function processExtensions(): bool {
  for (let i: u32 = 0; i < count; i++) {
    const at = list + ((<usize>i * 5) << 2);
    if (!applyExtension(load<u32>(at), load<u32>(at, 4), load<u32>(at, 12), load<u32>(at, 16))) return false;
  }
  return true;
}

function applyExtension(o: usize, olen: usize, v: usize, vlen: usize): bool {
  if (bytesEqual(o, olen, OID_AIA, 8)) return checkAuthorityInfoAccess(v, vlen);
  if (olen != 3 || load<u8>(o) != 0x55 || load<u8>(o + 1) != 0x1d) return true;
  switch (<u32>load<u8>(o + 2)) {
    case 17: return parseSubjectAltNames(v, vlen);
    case 19: return basicConstraints(v, vlen);
    case 15: {
      const r = Reader.over(v, v + vlen);
      return (r.expect(T_BIT_STRING, N_OTHER) && checkBitString(tContent, tEnd - tContent)) || fail(E_KEY_USAGE);
    }
    case 37: return extKeyUsage(v, vlen);
    case 14: return Reader.over(v, v + vlen).expect(T_OCTET_STRING, N_OTHER) || fail(E_SKI);
    case 35: {
      const r = Reader.over(v, v + vlen);
      return (r.expect(T_SEQUENCE, N_OTHER) && Reader.inner().optional(0x80) >= 0) || fail(E_AKI);
    }
    case 30: return checkNameConstraints(v, vlen);
    case 31: return checkCrlDistributionPoints(v, vlen);
    case 32: return checkCertificatePolicies(v, vlen);
    default: return true;
  }
}

function basicConstraints(v: usize, vlen: usize): bool {
  const r = Reader.over(v, v + vlen);
  if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_BASIC_CONSTRAINTS);
  const s = Reader.inner();
  if (s.optional(T_BOOLEAN) < 0) return fail(E_BASIC_CONSTRAINTS);
  const len = s.optional(T_INTEGER);
  if (len < 0 || (len == 1 && !decodeInt64(tContent, tEnd - tContent)) || !s.finish(N_OTHER)) return fail(E_BASIC_CONSTRAINTS);
  return true;
}

function extKeyUsage(v: usize, vlen: usize): bool {
  const r = Reader.over(v, v + vlen);
  if (!r.expect(T_SEQUENCE, N_OTHER)) return fail(E_EXT_KEY_USAGE);
  const s = Reader.inner();
  while (!s.empty) {
    if (!s.expect(T_OID, N_OTHER) || !checkOid(tContent, tEnd - tContent)) return fail(E_EXT_KEY_USAGE);
  }
  return true;
}

/** A SEQUENCE's content (what follows it is not looked at, as in Go); null when it does not read. */
function sequenceOf(v: usize, vlen: usize): Cb | null {
  const outer = new Cb(v, v + vlen);
  return outer.read(T_SEQUENCE) ? Cb.inner() : null;
}

// DistributionPoint: Go reads the URIs at the front of distributionPoint's fullName [0].
function checkCrlDistributionPoints(v: usize, vlen: usize): bool {
  const l = sequenceOf(v, vlen);
  if (l == null) return fail(E_CRL_DPS);
  while (!l.empty) {
    if (!l.read(T_SEQUENCE)) return fail(E_CRL_DP);
    const dp = Cb.inner();
    const name = dp.readOptional(0xa0);
    if (name < 0) return fail(E_CRL_DP);
    if (name == 0) continue;
    if (!Cb.inner().read(0xa0)) return fail(E_CRL_DP);
    const full = Cb.inner();
    while (full.peek(0x86)) if (!full.read(0x86)) return fail(E_CRL_DP);
  }
  return true;
}

/** newOIDFromDER: arcs of any size, minimal base-128, not truncated. */
function policyOidOk(p: usize, n: usize): bool {
  if (n == 0 || (load<u8>(p + n - 1) & 0x80) != 0) return false;
  let start: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const b = load<u8>(p + i);
    if (i == start && b == 0x80) return false;
    if ((b & 0x80) == 0) start = i + 1;
  }
  return true;
}

// PolicyInformation: its policyIdentifier must read, and no OID may come twice.
function checkCertificatePolicies(v: usize, vlen: usize): bool {
  const l = sequenceOf(v, vlen);
  if (l == null) return fail(E_POLICIES);
  const seen = new OidSet(<u32>(vlen / 4 + 1));
  while (!l.empty) {
    if (!l.read(T_SEQUENCE) || !Cb.inner().read(T_OID)) return fail(E_POLICIES);
    const o = tContent, n = tEnd - tContent;
    if (!seen.add(o, n) || !policyOidOk(o, n)) return fail(E_POLICIES);
  }
  return true;
}

// AccessDescription: an accessMethod OID, then a URI location is read when there is one.
function checkAuthorityInfoAccess(v: usize, vlen: usize): bool {
  const l = sequenceOf(v, vlen);
  if (l == null) return fail(E_AIA);
  while (!l.empty) {
    if (!l.read(T_SEQUENCE)) return fail(E_AIA);
    const a = Cb.inner();
    if (!a.read(T_OID) || !checkOid(tContent, tEnd - tContent)) return fail(E_AIA);
    if (a.peek(0x86) && !a.read(0x86)) return fail(E_AIA);
  }
  return true;
}
