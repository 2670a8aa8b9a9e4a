// Building PKCS#10 requests (RFC 2986) the way Go's x509.CreateCertificateRequest does: SANs go into
// an extensionRequest attribute; the attributes field is present (possibly empty) as PKCS#10 requires.
import type { KeyObject } from 'node:crypto';
import { bitString, octetString, oid, seq, setOf, smallInteger, tlv, boolean } from './der-write.js';
import { encodeSubjectAltNames, hasAltNames } from './general-names.js';
import { spkiOf, toPrivateKey } from './keys.js';
import { encodeName, type SubjectInput } from './names.js';
import { OID } from './oids.js';
import { encodePem } from './pem.js';
import { signWithKey, signatureAlgorithmFor } from './signature.js';

export interface CreateCsrOptions {
  /** Written as Go's pkix.Name.ToRDNSequence (client-go's MakeCSR): one RDN per attribute type. */
  subject: SubjectInput;
  dnsNames?: string[] | undefined;
  ipAddresses?: string[] | undefined;
  emailAddresses?: string[] | undefined;
  uris?: string[] | undefined;
  privateKey: KeyObject | string;
}

/** Creates a signed CSR; returns 'CERTIFICATE REQUEST' PEM. Backend: TypeScript (DER), node:crypto (signature). */
export function createCsr(opts: CreateCsrOptions): string {
  const key = toPrivateKey(opts.privateKey);
  const subject = encodeName(opts.subject);
  const names = {
    dnsNames: opts.dnsNames ?? [],
    ipAddresses: opts.ipAddresses ?? [],
    emailAddresses: opts.emailAddresses ?? [],
    uris: opts.uris ?? [],
  };
  const attributes: Uint8Array[] = [];
  if (hasAltNames(names)) {
    const critical = subject.length === 2;
    const san = seq(oid(OID.subjectAltName), ...(critical ? [boolean(true)] : []), octetString(encodeSubjectAltNames(names)));
    attributes.push(seq(oid(OID.extensionRequest), setOf(seq(san))));
  }
  const info = seq(smallInteger(0), subject, spkiOf(key), tlv(0xa0, attributes.length ? setOfContent(attributes) : new Uint8Array(0)));
  const der = seq(info, signatureAlgorithmFor(key), bitString(signWithKey(key, info)));
  return encodePem('CERTIFICATE REQUEST', der);
}

// [0] IMPLICIT SET OF Attribute: the SET's content, sorted as DER requires.
function setOfContent(parts: Uint8Array[]): Uint8Array {
  const set = setOf(...parts);
  return set.subarray(set.length - parts.reduce((n, p) => n + p.length, 0));
}

