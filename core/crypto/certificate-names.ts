// Names inside certificates, read as Go 1.23's crypto/x509 parseName reads them (cryptobyte plus
// parseASN1String): every value must be one of six string types, and each failing step has its own
// text. CSR subjects go through encoding/asn1 instead (names.ts parseName), which keeps other value
// types and words its errors differently.
import { DerReader, TAG, decodeOid, identifierOf, type Tlv } from './der.js';
import { CryptoError, step } from './errors.js';
import { addAttribute, decodeStringValue, emptyName, type DistinguishedNameAttribute, type ParsedName, type StringErrors } from './names.js';

/** parseName's texts (the WASM parser's too: wasm/parse.ts). */
export const RDN = 'x509: invalid RDNSequence';
export const RDN_ATTRIBUTE = `${RDN}: invalid attribute`;
export const RDN_ATTRIBUTE_TYPE = `${RDN}: invalid attribute type`;
export const RDN_ATTRIBUTE_VALUE = `${RDN}: invalid attribute value`;
const VALUE = RDN_ATTRIBUTE_VALUE;

// parseASN1String's texts, wrapped by parseName.
const X509_STRING_ERRORS: StringErrors = {
  printable: `${VALUE}: invalid PrintableString`,
  ia5: `${VALUE}: invalid IA5String`,
  numeric: `${VALUE}: invalid NumericString`,
  utf8: `${VALUE}: invalid UTF-8 string`,
  bmp: `${VALUE}: invalid BMPString`,
};

/** The text for a value of string tag `tag` that parseASN1String refuses. */
export function x509StringError(tag: number): string {
  const key = ({ [TAG.PrintableString]: 'printable', [TAG.IA5String]: 'ia5', [TAG.NumericString]: 'numeric', [TAG.UTF8String]: 'utf8', [TAG.BMPString]: 'bmp' } as const)[tag];
  return key === undefined ? VALUE : X509_STRING_ERRORS[key];
}

/** The text for a value whose identifier octet is not one of the six string types. */
export function x509UnsupportedString(identifier: number): string {
  return `${VALUE}: unsupported string type: ${identifier}`;
}

/** The Name whose SEQUENCE element is `t` in `buf` (read by the caller: Go's "malformed issuer"). */
export function parseCertificateName(buf: Uint8Array, t: Tlv): ParsedName {
  const out = emptyName();
  const rdns = DerReader.of(buf, t);
  while (!rdns.empty) {
    const atvs = rdns.inner(step(RDN, () => rdns.expect(TAG.SET, 'SET')));
    const rdn: DistinguishedNameAttribute[] = [];
    while (!atvs.empty) {
      const atv = atvs.inner(step(RDN_ATTRIBUTE, () => atvs.expect(TAG.SEQUENCE, 'SEQUENCE')));
      const type = step(RDN_ATTRIBUTE_TYPE, () => decodeOid(atv.content(atv.expect(TAG.OID, 'OID'))));
      // Go reads one element with ReadAnyASN1, which refuses high tag numbers, and never looks past it.
      const value = step(VALUE, () => atv.next());
      const id = identifierOf(value);
      if (id < 0) throw new CryptoError(VALUE);
      const str = decodeStringValue(value, atv.content(value), X509_STRING_ERRORS);
      if (str === undefined) throw new CryptoError(x509UnsupportedString(id));
      // parseASN1String takes a BMPString as UCS-2: no surrogates, no permanent noncharacters.
      if (id === TAG.BMPString && !isUcs2(atv.content(value))) throw new CryptoError(X509_STRING_ERRORS.bmp);
      addAttribute(out, rdn, type, str, atv.element(value));
    }
    out.rdns.push(rdn);
  }
  return out;
}

/** Whether big-endian 16-bit units are UCS-2 as Go's parseASN1String takes it: no surrogate, no permanent noncharacter. */
export function isUcs2(c: Uint8Array): boolean {
  for (let i = 0; i + 1 < c.length; i += 2) {
    const u = (c[i]! << 8) | c[i + 1]!;
    if (u === 0xfffe || u === 0xffff || (u >= 0xfdd0 && u <= 0xfdef) || (u >= 0xd800 && u <= 0xdfff)) return false;
  }
  return true;
}
