// X.501 Names: reading them the way Go's x509 does (pkix.RDNSequence + FillFromRDNSequence), and
// writing the small subjects plat needs.
import { Buffer } from 'node:buffer';
import { DerReader, TAG, identifierOf, tagMismatch, decodeBitString, decodeInt64, decodeOid, type Tlv } from './der.js';
import { seq, setOf, oid, printableString, utf8String } from './der-write.js';
import { CryptoError } from './errors.js';
import { goAsn1TimeError } from './go-asn1-time.js';
import { goBytesString } from './go-bytes-string.js';
import { DN_COMMON_NAME, DN_ORGANIZATION, DN_ORGANIZATIONAL_UNIT, DN_SHORT_NAMES } from './oids.js';

export interface DistinguishedNameAttribute {
  /** Attribute type OID, dotted. */
  type: string;
  /** CN, O, OU, C, ... when the type is a well-known one. */
  shortName?: string;
  /** The string value; values that are not ASN.1 strings are `#` + hex of their DER (RFC 4514 §2.4). */
  value: string;
}

export interface ParsedName {
  rdns: DistinguishedNameAttribute[][];
  /** Go's pkix.Name.CommonName: the LAST string-valued CN wins. */
  commonName: string;
  organizations: string[];
  organizationalUnits: string[];
}

/** Parses a Name whose TLV is `t` in `buf`. */
export function parseName(buf: Uint8Array, t: Tlv): ParsedName {
  if (identifierOf(t) !== TAG.SEQUENCE) throw tagMismatch(16, t, 'RDNSequence', t.contentStart - t.start);
  const out = emptyName();
  const rdns = DerReader.of(buf, t);
  while (!rdns.empty) {
    const rdnTlv = rdns.next();
    if (identifierOf(rdnTlv) !== TAG.SET) throw new CryptoError('asn1: structure error: sequence tag mismatch');
    const rdn: DistinguishedNameAttribute[] = [];
    const atvs = rdns.inner(rdnTlv);
    while (!atvs.empty) {
      const atvTlv = atvs.next();
      if (identifierOf(atvTlv) !== TAG.SEQUENCE) throw new CryptoError('asn1: structure error: sequence tag mismatch');
      const atv = atvs.inner(atvTlv);
      const type = decodeOid(atv.content(atv.expect(TAG.OID, 'ObjectIdentifier')));
      const valueTlv = atv.next();
      atv.finish('AttributeTypeAndValue');
      const str = decodeStringValue(valueTlv, atv.content(valueTlv));
      if (str === undefined) checkOtherValue(valueTlv, atv.content(valueTlv));
      addAttribute(out, rdn, type, str, atv.element(valueTlv));
    }
    out.rdns.push(rdn);
  }
  return out;
}

/**
 * encoding/asn1 also decodes these non-string values of a CSR subject into the attribute's `any`
 * (Go refuses the CSR when they do not read); every other value (BOOLEAN, NULL, ENUMERATED, ...)
 * stays nil, unchecked.
 */
function checkOtherValue(t: Tlv, c: Uint8Array): void {
  if (t.constructed || t.cls !== 0) return;
  if (t.num === TAG.INTEGER) decodeInt64(c);
  else if (t.num === TAG.BIT_STRING) decodeBitString(c);
  else if (t.num === TAG.OID) decodeOid(c);
  else if (t.num === TAG.UTCTime || t.num === TAG.GeneralizedTime) {
    const error = goAsn1TimeError(t.num, c);
    if (error !== undefined) throw new CryptoError(error);
  }
}

export function emptyName(): ParsedName {
  return { rdns: [], commonName: '', organizations: [], organizationalUnits: [] };
}

/**
 * Appends an attribute to `rdn`; a string value also fills the Name's CN/O/OU as Go's
 * FillFromRDNSequence does. Other values are kept as `#` + hex of `element`.
 */
export function addAttribute(out: ParsedName, rdn: DistinguishedNameAttribute[], type: string, str: string | undefined, element: Uint8Array): void {
  const attr: DistinguishedNameAttribute = { type, value: str ?? '#' + hex(element) };
  const short = DN_SHORT_NAMES[type];
  if (short !== undefined) attr.shortName = short;
  rdn.push(attr);
  if (str === undefined) return;
  if (type === DN_COMMON_NAME) out.commonName = str;
  else if (type === DN_ORGANIZATION) out.organizations.push(str);
  else if (type === DN_ORGANIZATIONAL_UNIT) out.organizationalUnits.push(str);
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// ignoreBOM keeps a leading U+FEFF in the value, as Go does.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Go's isPrintable with asterisk and ampersand allowed, as its parser uses it.
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*&]*$/;

/** The error texts of one Go string parser (encoding/asn1's, or crypto/x509's parseASN1String). */
export interface StringErrors {
  printable: string;
  ia5: string;
  numeric: string;
  utf8: string;
  bmp: string;
}

// encoding/asn1 (CSR subjects). Its parseUTF8String returns a plain errors.New, not a SyntaxError like
// the checks before it; its BMPString parser is pkcs12's, text included.
const ASN1_STRING_ERRORS: StringErrors = {
  printable: 'asn1: syntax error: PrintableString contains invalid character',
  ia5: 'asn1: syntax error: IA5String contains invalid character',
  numeric: 'asn1: syntax error: NumericString contains invalid character',
  utf8: 'asn1: invalid UTF-8 string',
  bmp: 'pkcs12: odd-length BMP string',
};

/** The string an ASN.1 string type holds (Go's rules, `errors`' texts), or undefined for other types. */
export function decodeStringValue(t: Tlv, c: Uint8Array, errors: StringErrors = ASN1_STRING_ERRORS): string | undefined {
  if (t.constructed || t.cls !== 0) return undefined;
  const latin1 = (): string => Buffer.from(c).toString('latin1');
  switch (t.num) {
    case TAG.PrintableString: {
      const s = latin1();
      if (!PRINTABLE.test(s)) throw new CryptoError(errors.printable);
      return s;
    }
    case TAG.IA5String:
      if (c.some((b) => b >= 0x80)) throw new CryptoError(errors.ia5);
      return latin1();
    case TAG.NumericString:
      if (c.some((b) => !((b >= 0x30 && b <= 0x39) || b === 0x20))) throw new CryptoError(errors.numeric);
      return latin1();
    case TAG.T61String:
      // Go 1.23's parseT61String is string(bytes): no character set (go-bytes-string.ts).
      return goBytesString(c);
    case TAG.UTF8String:
      try {
        return utf8.decode(c);
      } catch {
        throw new CryptoError(errors.utf8);
      }
    case TAG.BMPString: {
      if (c.length % 2 !== 0) throw new CryptoError(errors.bmp);
      let n = c.length;
      if (n >= 2 && c[n - 1] === 0 && c[n - 2] === 0) n -= 2;
      let s = '';
      for (let i = 0; i < n; i += 2) s += String.fromCharCode((c[i]! << 8) | c[i + 1]!);
      return wellFormed(s);
    }
    default:
      return undefined;
  }
}

/** Go's utf16.Decode: an unpaired surrogate becomes U+FFFD. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** pkix.Name's string attributes (no ExtraNames). */
export interface SubjectInput {
  countries?: readonly string[] | undefined;
  provinces?: readonly string[] | undefined;
  localities?: readonly string[] | undefined;
  streetAddresses?: readonly string[] | undefined;
  postalCodes?: readonly string[] | undefined;
  organizations?: readonly string[] | undefined;
  organizationalUnits?: readonly string[] | undefined;
  commonName?: string | undefined;
  serialNumber?: string | undefined;
}

// Go's marshalling choice: PrintableString when every character allows it, else UTF8String.
const PRINTABLE_STRICT = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

function attributeValue(type: string, value: string): Uint8Array {
  if (typeof value !== 'string') throw new TypeError('subject values must be strings');
  return seq(oid(type), PRINTABLE_STRICT.test(value) ? printableString(value) : utf8String(value));
}

// pkix.Name.ToRDNSequence's order (current Go; the Name struct's field order differs); serialNumber
// and CN are single strings, left out when empty.
const NAME_ORDER: ReadonlyArray<readonly [string, (s: SubjectInput) => readonly string[] | undefined]> = [
  ['2.5.4.6', (s) => s.countries],
  ['2.5.4.8', (s) => s.provinces],
  ['2.5.4.7', (s) => s.localities],
  ['2.5.4.9', (s) => s.streetAddresses],
  ['2.5.4.17', (s) => s.postalCodes],
  [DN_ORGANIZATION, (s) => s.organizations],
  [DN_ORGANIZATIONAL_UNIT, (s) => s.organizationalUnits],
  [DN_COMMON_NAME, (s) => (s.commonName ? [s.commonName] : undefined)],
  ['2.5.4.5', (s) => (s.serialNumber ? [s.serialNumber] : undefined)],
];

/**
 * A Name as Go's pkix.Name.ToRDNSequence and asn1.Marshal write it (appendRDNs): the attribute
 * types in Go's order, all values of one type in ONE multi-valued RDN (a SET OF, sorted by DER
 * encoding), a type without values left out.
 */
export function encodeName(subject: SubjectInput): Uint8Array {
  const rdns: Uint8Array[] = [];
  for (const [type, values] of NAME_ORDER) {
    const v = values(subject);
    if (v !== undefined && v.length > 0) rdns.push(setOf(...v.map((value) => attributeValue(type, value))));
  }
  return seq(...rdns);
}
