// Certificates with one TBS field swapped for hand-made bytes (the signature is left stale: these
// exercise the parser, which runs before any signature check).
import { DerReader, readTlv } from '../../core/crypto/der.js';
import { boolean, explicit, octetString, oid, seq } from '../../core/crypto/der-write.js';

/** Positions in a v3 TBSCertificate: [0] version, serial, signature algorithm, issuer, validity, subject, spki, [3] extensions. */
export const TBS_FIELD = { issuer: 3, validity: 4, subject: 5, spki: 6, extensions: 7 } as const;

/** `der` (a v3 certificate) with the given TBS fields replaced by `swaps`' element bytes. */
export function withTbsFields(der: Uint8Array, swaps: Partial<Record<keyof typeof TBS_FIELD, Uint8Array>>): Uint8Array {
  const cert = readTlv(der, 0);
  const tbs = readTlv(der, cert.contentStart);
  const fields: Uint8Array[] = [];
  const r = new DerReader(der, tbs.contentStart, tbs.end);
  while (!r.empty) fields.push(r.element(r.next()));
  for (const [name, bytes] of Object.entries(swaps)) fields[TBS_FIELD[name as keyof typeof TBS_FIELD]] = bytes;
  return seq(seq(...fields), der.subarray(tbs.end, cert.end));
}

/** Raw bytes wrapped as a Name (SEQUENCE) without any checks. */
export const rawName = (...content: (Uint8Array | number[])[]): Uint8Array => seq(...content.map((c) => Uint8Array.from(c)));

/** One Extension: the OID, critical only when asked, the value wrapped in its OCTET STRING. */
export const extension = (dotted: string, value: Uint8Array, critical = false): Uint8Array =>
  seq(oid(dotted), ...(critical ? [boolean(true)] : []), octetString(value));

/** `der` (a v3 certificate with extensions) with its extensions replaced by these, in this order. */
export const withExtensions = (der: Uint8Array, ...extensions: Uint8Array[]): Uint8Array =>
  withTbsFields(der, { extensions: explicit(3, seq(...extensions)) });
