// A certificate's extensions as Go 1.23's parseCertificate reads them: the list (parseExtension's
// per-field texts, duplicates refused as they are met), then processExtensions in list order, each
// known extension checked by its own rules with its own text. Plat is stricter than Go in one way:
// bytes after an Extension's fields, or after the list inside [3], are refused.
import { Buffer } from 'node:buffer';
import { decodeBitString, decodeBoolean, decodeInt64, decodeOid, DerReader, TAG, type Tlv } from './der.js';
import { CryptobyteString } from './cryptobyte.js';
import { CryptoError, step } from './errors.js';
import type { X509Extension } from './extensions.js';
import { parseSubjectAltNames, type SubjectAltNames } from './general-names.js';
import { checkNameConstraints } from './name-constraints.js';
import { OID } from './oids.js';
import { EXT_KEY_USAGE_NAMES, KEY_USAGE_NAMES } from './usages.js';

/** What processExtensions fills in (the fields ParsedCertificate carries). */
export interface ExtensionFields extends SubjectAltNames {
  isCA: boolean;
  pathLen?: number;
  keyUsage: string[];
  extKeyUsage: string[];
  subjectKeyId?: Uint8Array;
  authorityKeyId?: Uint8Array;
}

const fail = (message: string): never => {
  throw new CryptoError(message);
};

/** The content of the [3] element: Extensions ::= SEQUENCE OF Extension. */
export function parseCertificateExtensions(content: Uint8Array): X509Extension[] {
  const outer = CryptobyteString.of(content);
  const list = outer.read(TAG.SEQUENCE);
  if (list === undefined || !outer.empty) fail('x509: malformed extensions');
  const l = outer.inner(list!);
  const out: X509Extension[] = [];
  const seen = new Set<string>();
  while (!l.empty) {
    const t = l.read(TAG.SEQUENCE) ?? fail('x509: malformed extension');
    const e = l.inner(t);
    const o = e.read(TAG.OID);
    const oid = o === undefined ? undefined : oidText(e.content(o));
    if (oid === undefined) fail('x509: malformed extension OID field');
    let critical = false;
    if (e.peek(TAG.BOOLEAN)) {
      const c = e.read(TAG.BOOLEAN);
      critical = (c === undefined ? undefined : booleanValue(e.content(c))) ?? fail('x509: malformed extension critical field');
    }
    const v = e.read(TAG.OCTET_STRING) ?? fail('x509: malformed extension value field');
    if (!e.empty) fail('x509: malformed extension');
    if (seen.has(oid!)) fail('x509: certificate contains duplicate extensions');
    seen.add(oid!);
    out.push({ oid: oid!, critical, value: e.content(v) });
  }
  return out;
}

function oidText(c: Uint8Array): string | undefined {
  try {
    return decodeOid(c);
  } catch {
    return undefined;
  }
}

function booleanValue(c: Uint8Array): boolean | undefined {
  try {
    return decodeBoolean(c);
  } catch {
    return undefined;
  }
}

/** newOIDFromDER: any length of arc, but minimal base-128 and not truncated. */
function policyOidOk(c: Uint8Array): boolean {
  if (c.length === 0 || c[c.length - 1]! & 0x80) return false;
  let start = 0;
  for (let i = 0; i < c.length; i++) {
    if (i === start && c[i] === 0x80) return false;
    if ((c[i]! & 0x80) === 0) start = i + 1;
  }
  return true;
}

/** processExtensions: the first extension that Go refuses throws its text. */
export function processExtensions(c: ExtensionFields, extensions: readonly X509Extension[]): void {
  for (const e of extensions) applyExtension(c, e);
}

function applyExtension(c: ExtensionFields, e: X509Extension): void {
  switch (e.oid) {
    case OID.subjectAltName:
      Object.assign(c, parseSubjectAltNames(e.value));
      return;
    case OID.basicConstraints:
      step('x509: invalid basic constraints', () => {
        const r = new DerReader(e.value);
        const s = r.inner(r.expect(TAG.SEQUENCE, 'basicConstraints'));
        const ca = s.optional(TAG.BOOLEAN);
        c.isCA = ca !== undefined && s.content(ca)[0] === 0xff;
        const len = s.optional(TAG.INTEGER);
        if (len !== undefined) c.pathLen = Number(decodeInt64(s.content(len)));
        s.finish('basicConstraints');
      });
      return;
    case OID.keyUsage:
      step('x509: invalid key usage', () => {
        const r = new DerReader(e.value);
        const bs = decodeBitString(r.content(r.expect(TAG.BIT_STRING, 'keyUsage')));
        KEY_USAGE_NAMES.forEach((name, bit) => {
          if ((bs.bytes[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) c.keyUsage.push(name);
        });
      });
      return;
    case OID.extKeyUsage:
      step('x509: invalid extended key usages', () => {
        const r = new DerReader(e.value);
        const s = r.inner(r.expect(TAG.SEQUENCE, 'extKeyUsage'));
        while (!s.empty) {
          const o = decodeOid(s.content(s.expect(TAG.OID, 'ObjectIdentifier')));
          c.extKeyUsage.push(EXT_KEY_USAGE_NAMES[o] ?? o);
        }
      });
      return;
    case OID.subjectKeyIdentifier:
      c.subjectKeyId = step('x509: invalid subject key identifier', () => {
        const r = new DerReader(e.value);
        return r.content(r.expect(TAG.OCTET_STRING, 'ski'));
      });
      return;
    case OID.authorityKeyIdentifier:
      step('x509: invalid authority key identifier', () => {
        const r = new DerReader(e.value);
        const s = r.inner(r.expect(TAG.SEQUENCE, 'aki'));
        const id: Tlv | undefined = s.optional(0x80);
        if (id !== undefined) c.authorityKeyId = s.content(id);
      });
      return;
    case OID.nameConstraints:
      checkNameConstraints(e.value);
      return;
    case OID.crlDistributionPoints:
      checkCrlDistributionPoints(e.value);
      return;
    case OID.certificatePolicies:
      checkCertificatePolicies(e.value);
      return;
    case OID.authorityInfoAccess:
      checkAuthorityInfoAccess(e.value);
      return;
    default:
      return;
  }
}

/** A SEQUENCE's content (what follows the SEQUENCE is not looked at, as in Go), or `message`. */
function sequenceOf(value: Uint8Array, message: string): CryptobyteString {
  const outer = CryptobyteString.of(value);
  const t = outer.read(TAG.SEQUENCE) ?? fail(message);
  return outer.inner(t);
}

// DistributionPoint ::= SEQUENCE { distributionPoint [0] { fullName [0] GeneralNames, ... } OPTIONAL, ... }:
// Go reads the URIs at the front of fullName and stops at the first other name.
function checkCrlDistributionPoints(value: Uint8Array): void {
  const list = sequenceOf(value, 'x509: invalid CRL distribution points');
  const bad = 'x509: invalid CRL distribution point';
  while (!list.empty) {
    const dp = list.inner(list.read(TAG.SEQUENCE) ?? fail(bad));
    const name = dp.readOptional(0xa0) ?? fail(bad);
    if (name === 'absent') continue;
    const outer = dp.inner(name);
    const full = outer.inner(outer.read(0xa0) ?? fail(bad));
    while (full.peek(0x86)) full.read(0x86) ?? fail(bad);
  }
}

// PolicyInformation ::= SEQUENCE { policyIdentifier OBJECT IDENTIFIER, ... }; an OID twice is refused.
function checkCertificatePolicies(value: Uint8Array): void {
  const bad = 'x509: invalid certificate policies';
  const list = sequenceOf(value, bad);
  const seen = new Set<string>();
  while (!list.empty) {
    const p = list.inner(list.read(TAG.SEQUENCE) ?? fail(bad));
    const o = p.read(TAG.OID) ?? fail(bad);
    const key = Buffer.from(p.content(o)).toString('hex');
    if (seen.has(key) || !policyOidOk(p.content(o))) fail(bad);
    seen.add(key);
  }
}

// AccessDescription ::= SEQUENCE { accessMethod OBJECT IDENTIFIER, accessLocation GeneralName }.
function checkAuthorityInfoAccess(value: Uint8Array): void {
  const bad = 'x509: invalid authority info access';
  const list = sequenceOf(value, bad);
  while (!list.empty) {
    const a = list.inner(list.read(TAG.SEQUENCE) ?? fail(bad));
    const method = a.read(TAG.OID);
    if (method === undefined || oidText(a.content(method)) === undefined) fail(bad);
    if (a.peek(0x86)) a.read(0x86) ?? fail(bad);
  }
}
