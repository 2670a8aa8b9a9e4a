// X.501 Names: reading them the way Go's x509 does (pkix.RDNSequence + FillFromRDNSequence), and
// writing the small subjects plat needs.
import { Buffer } from 'node:buffer';
import { DerReader, TAG, identifierOf, tagMismatch, decodeOid, type Tlv } from './der.js';
import { seq, setOf, oid, printableString, utf8String } from './der-write.js';
import { CryptoError } from './errors.js';
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

const syntax = (msg: string): CryptoError => new CryptoError(`asn1: syntax error: ${msg}`);

/** Parses a Name whose TLV is `t` in `buf`. */
export function parseName(buf: Uint8Array, t: Tlv): ParsedName {
  if (identifierOf(t) !== TAG.SEQUENCE) throw tagMismatch(16, t, 'RDNSequence', t.contentStart - t.start);
  const out: ParsedName = { rdns: [], commonName: '', organizations: [], organizationalUnits: [] };
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
      const attr: DistinguishedNameAttribute = { type, value: str ?? '#' + hex(atv.element(valueTlv)) };
      const short = DN_SHORT_NAMES[type];
      if (short !== undefined) attr.shortName = short;
      rdn.push(attr);
      if (str === undefined) continue;
      if (type === DN_COMMON_NAME) out.commonName = str;
      else if (type === DN_ORGANIZATION) out.organizations.push(str);
      else if (type === DN_ORGANIZATIONAL_UNIT) out.organizationalUnits.push(str);
    }
    out.rdns.push(rdn);
  }
  return out;
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// ignoreBOM keeps a leading U+FEFF in the value, as Go does.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Go's isPrintable with asterisk and ampersand allowed, as its parser uses it.
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*&]*$/;

/** The string an ASN.1 string type holds (Go's rules and errors), or undefined for other types. */
function decodeStringValue(t: Tlv, c: Uint8Array): string | undefined {
  if (t.constructed || t.cls !== 0) return undefined;
  const latin1 = (): string => Buffer.from(c).toString('latin1');
  switch (t.num) {
    case TAG.PrintableString: {
      const s = latin1();
      if (!PRINTABLE.test(s)) throw syntax('PrintableString contains invalid character');
      return s;
    }
    case TAG.IA5String:
      if (c.some((b) => b >= 0x80)) throw syntax('IA5String contains invalid character');
      return latin1();
    case TAG.NumericString:
      if (c.some((b) => !((b >= 0x30 && b <= 0x39) || b === 0x20))) throw syntax('NumericString contains invalid character');
      return latin1();
    case TAG.T61String:
      return latin1();
    case TAG.UTF8String:
      try {
        return utf8.decode(c);
      } catch {
        // Go's parseUTF8String returns a plain errors.New, not a SyntaxError like the checks above.
        throw new CryptoError('asn1: invalid UTF-8 string');
      }
    case TAG.BMPString: {
      if (c.length % 2 !== 0) throw new CryptoError('pkcs12: odd-length BMP string');
      let n = c.length;
      if (n >= 2 && c[n - 1] === 0 && c[n - 2] === 0) n -= 2;
      let s = '';
      for (let i = 0; i < n; i += 2) s += String.fromCharCode((c[i]! << 8) | c[i + 1]!);
      return s;
    }
    default:
      return undefined;
  }
}

export interface SubjectInput {
  commonName?: string | undefined;
  organizations?: readonly string[] | undefined;
  organizationalUnits?: readonly string[] | undefined;
}

// Go's marshalling choice: PrintableString when every character allows it, else UTF8String.
const PRINTABLE_STRICT = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

function attribute(type: string, value: string): Uint8Array {
  if (typeof value !== 'string') throw new TypeError('subject values must be strings');
  const encoded = PRINTABLE_STRICT.test(value) ? printableString(value) : utf8String(value);
  return setOf(seq(oid(type), encoded));
}

/** A Name in Go's attribute order (O, OU, CN), one RDN per value. */
export function encodeName(subject: SubjectInput): Uint8Array {
  const rdns: Uint8Array[] = [];
  for (const o of subject.organizations ?? []) rdns.push(attribute(DN_ORGANIZATION, o));
  for (const ou of subject.organizationalUnits ?? []) rdns.push(attribute(DN_ORGANIZATIONAL_UNIT, ou));
  if (subject.commonName !== undefined && subject.commonName !== '') rdns.push(attribute(DN_COMMON_NAME, subject.commonName));
  return seq(...rdns);
}
