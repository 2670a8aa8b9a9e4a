// Go's `%#v` of the pkix.Name that x509 fills from a parsed subject (FillFromRDNSequence), as
// client-go's ensureCompatible prints two subjects that differ. Values that are not ASN.1 strings
// (plat's parser gives them as `#` + hex) are printed as that text.
import type { DistinguishedNameAttribute } from '../../crypto/index.js';
import { goQuote } from '../../go-quote.js';

/** pkix.Name's string-list fields, in declaration order, with the attribute each collects. */
const LIST_FIELDS: readonly (readonly [string, string])[] = [
  ['Country', '2.5.4.6'], ['Organization', '2.5.4.10'], ['OrganizationalUnit', '2.5.4.11'], ['Locality', '2.5.4.7'],
  ['Province', '2.5.4.8'], ['StreetAddress', '2.5.4.9'], ['PostalCode', '2.5.4.17'],
];

const stringList = (v: readonly string[]): string => (v.length ? `[]string{${v.map(goQuote).join(', ')}}` : '[]string(nil)');

/** The attributes in subject order, as Name.Names holds them. */
export const flatSubject = (rdns: readonly (readonly DistinguishedNameAttribute[])[]): DistinguishedNameAttribute[] => rdns.flat();

export function goPkixName(rdns: readonly (readonly DistinguishedNameAttribute[])[]): string {
  const names = flatSubject(rdns);
  const values = (oid: string) => names.filter((a) => a.type === oid).map((a) => a.value);
  // The last CN and serialNumber win, as FillFromRDNSequence assigns them in turn.
  const last = (oid: string) => values(oid).at(-1) ?? '';
  const lists = LIST_FIELDS.map(([field, oid]) => `${field}:${stringList(values(oid))}`);
  const atv = names.map((a) => `pkix.AttributeTypeAndValue{Type:asn1.ObjectIdentifier{${a.type.split('.').join(', ')}}, Value:${goQuote(a.value)}}`);
  const namesText = atv.length ? `[]pkix.AttributeTypeAndValue{${atv.join(', ')}}` : '[]pkix.AttributeTypeAndValue(nil)';
  return `pkix.Name{${lists.join(', ')}, SerialNumber:${goQuote(last('2.5.4.5'))}, CommonName:${goQuote(last('2.5.4.3'))}, `
    + `Names:${namesText}, ExtraNames:[]pkix.AttributeTypeAndValue(nil)}`;
}
