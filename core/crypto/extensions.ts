// X.509 Extension lists (shared by CSRs and certificates).
import { DerReader, TAG, decodeBoolean, decodeOid, identifierOf } from './der.js';
import { CryptoError } from './errors.js';

export interface X509Extension {
  oid: string;
  critical: boolean;
  /** The extnValue OCTET STRING content. */
  value: Uint8Array;
}

/** Extensions ::= SEQUENCE OF Extension (Go's asn1.Unmarshal into []pkix.Extension, same messages). */
export function parseExtensions(der: Uint8Array): X509Extension[] {
  const r = new DerReader(der);
  const list = r.inner(r.expect(TAG.SEQUENCE, ''));
  const out: X509Extension[] = [];
  while (!list.empty) {
    const t = list.next();
    if (identifierOf(t) !== TAG.SEQUENCE) throw new CryptoError('asn1: structure error: sequence tag mismatch');
    const e = list.inner(t);
    const id = decodeOid(e.content(e.expect(TAG.OID, 'ObjectIdentifier')));
    const crit = e.optional(TAG.BOOLEAN);
    const value = e.content(e.expect(TAG.OCTET_STRING, ''));
    e.finish('Extension');
    out.push({ oid: id, critical: crit === undefined ? false : decodeBoolean(e.content(crit)), value });
  }
  return out;
}
