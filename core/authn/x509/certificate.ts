// The fields of an X.509 certificate that chain verification and user mapping need, parsed the
// way Go's crypto/x509 parses them (the behaviour plat mirrors): subject attributes must be one of
// Go's string types, extensions must not repeat, the inner and outer signature algorithms must
// agree. OpenSSL parses the same bytes too (X509Certificate, for signatures); a certificate is used
// only when both accept it.
import { X509Certificate, createHash } from 'node:crypto';
import { DerError, DerReader, TAG, ctx, decodeBitString, decodeBoolean, decodeInteger, decodeOid, decodeSmallUnsigned, decodeTime } from './der.js';
import type { Tlv } from './der.js';
import { CryptoError } from '../../crypto/errors.js';
import { checkPublicKey, readSubjectPublicKeyInfo, type AlgorithmIdentifier, type PublicKeyInfo } from '../../crypto/public-key.js';
import { DerReader as CryptoDerReader } from '../../crypto/der.js';
import { isUcs2 } from '../../crypto/certificate-names.js';
import { parseSubjectAltNames } from '../../crypto/general-names.js';
import { goBytesString } from '../../crypto/go-bytes-string.js';

export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyId: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  nameConstraints: '2.5.29.30',
  crlDistributionPoints: '2.5.29.31',
  certificatePolicies: '2.5.29.32',
  policyMappings: '2.5.29.33',
  authorityKeyId: '2.5.29.35',
  policyConstraints: '2.5.29.36',
  extKeyUsage: '2.5.29.37',
  inhibitAnyPolicy: '2.5.29.54',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ekuAny: '2.5.29.37.0',
  ekuClientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** Extensions whose semantics Go's x509 understands, so marking them critical is fine. */
const HANDLED_CRITICAL = new Set<string>([
  OID.subjectKeyId, OID.keyUsage, OID.subjectAltName, OID.basicConstraints, OID.crlDistributionPoints,
  OID.certificatePolicies, OID.authorityKeyId, OID.extKeyUsage, OID.authorityInfoAccess,
]);

/** KeyUsage bit 5 (X.509 numbering), as Go's KeyUsageCertSign. */
export const KEY_USAGE_CERT_SIGN = 1 << 5;

export interface Certificate {
  readonly der: Buffer;
  /** OpenSSL's view, used for signature checks and checkIssued. */
  readonly x509: X509Certificate;
  readonly version: number;
  readonly serial: bigint;
  readonly signatureAlgorithm: string;
  /** The outer signatureAlgorithm as Go's getSignatureAlgorithmFromAI reads it (RSA-PSS parameters). */
  readonly signatureAlgorithmIdentifier: AlgorithmIdentifier;
  /** What the issuer signed, and the signature (BIT STRING bytes). */
  readonly rawTbs: Buffer;
  readonly signature: Buffer;
  /** The subject key as Go's parsePublicKey reads it (a key Go refuses fails the parse). */
  readonly publicKey: PublicKeyInfo;
  readonly rawIssuer: Buffer;
  readonly rawSubject: Buffer;
  readonly rawSpki: Buffer;
  readonly notBefore: number;
  readonly notAfter: number;
  /** The last CN in the subject (Go's pkix.Name.CommonName). */
  readonly commonName: string;
  /** All O values in subject order (Go's pkix.Name.Organization). */
  readonly organizations: readonly string[];
  /** Present when the basicConstraints extension is. */
  readonly basicConstraints?: { readonly isCA: boolean; readonly maxPathLen: number | undefined };
  /** KeyUsage bits, bit i = 1 << i; 0 when the extension is absent. */
  readonly keyUsage: number;
  /** EKU OIDs; empty when the extension is absent or empty (Go: any usage). */
  readonly extKeyUsage: readonly string[];
  readonly subjectAltName: Buffer | undefined;
  /** Key identifiers, empty when absent; they only order candidate parents, as in Go. */
  readonly subjectKeyId: Buffer;
  readonly authorityKeyId: Buffer;
  readonly unhandledCritical: readonly string[];
  /** Extensions plat refuses instead of enforcing (see README). */
  readonly unsupported: readonly string[];
  readonly sha256: string;
}

export class CertificateParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateParseError';
  }
}

/** A ParseCertificate error Go words on its own (not as a malformed encoding): passed on as is. */
class GoParseError extends CertificateParseError {}

/** Extensions RFC 5280 says conforming CAs mark non-critical, which Go's parser refuses critical. */
const NEVER_CRITICAL: Readonly<Record<string, string>> = {
  [OID.subjectKeyId]: 'x509: subject key identifier incorrectly marked critical',
  [OID.authorityKeyId]: 'x509: authority key identifier incorrectly marked critical',
  [OID.authorityInfoAccess]: 'x509: authority info access incorrectly marked critical',
};

export function parseCertificate(der: Buffer): Certificate {
  const bytes = Buffer.from(der);
  // Our own strict parse first: its errors are clearer than OpenSSL's, and it makes sure the
  // input is one DER certificate (X509Certificate would also accept PEM text).
  let fields: ParsedFields;
  try {
    fields = parseFields(bytes);
  } catch (err) {
    if (err instanceof GoParseError) throw err;
    if (err instanceof DerError || err instanceof CertificateParseError) {
      throw new CertificateParseError(`x509: malformed certificate: ${err.message}`);
    }
    throw err;
  }
  // Go's ParseCertificate refuses keys it cannot use (an unsupported curve, a negative RSA
  // modulus...); crypto/tls then fails the handshake: such a certificate is never anyone's.
  let publicKey: PublicKeyInfo;
  try {
    publicKey = checkPublicKey(readSubjectPublicKeyInfo(new CryptoDerReader(fields.rawSpki)));
  } catch (err) {
    if (err instanceof CryptoError) throw new CertificateParseError(err.message);
    throw err;
  }
  const { subjectAltNameCritical, ...parsed } = fields;
  const unhandledCritical = subjectAltNameUnhandled(parsed.subjectAltName, subjectAltNameCritical)
    ? [...parsed.unhandledCritical, OID.subjectAltName]
    : parsed.unhandledCritical;
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(bytes);
  } catch (err) {
    throw new CertificateParseError(`x509: malformed certificate: ${(err as Error).message}`);
  }
  return { ...parsed, unhandledCritical, publicKey, x509 };
}

/**
 * Go's ParseCertificate reads the subjectAltName (parseSANExtension, after the key): a malformed
 * one (a 5-byte IP, a non-IA5 dNSName...) fails the parse, so crypto/tls fails the handshake, and
 * one naming no DNS name, email, IP or URI (otherName only, say) counts as not understood, so
 * marked critical it is an unhandled critical extension, which Verify refuses. True for that case.
 */
function subjectAltNameUnhandled(value: Buffer | undefined, critical: boolean): boolean {
  if (value === undefined) return false;
  let names;
  try {
    names = parseSubjectAltNames(value);
  } catch (err) {
    if (err instanceof CryptoError) throw new CertificateParseError(err.message);
    throw err;
  }
  const none = names.dnsNames.length + names.emailAddresses.length + names.ipAddresses.length + names.uris.length === 0;
  return critical && none;
}

/** The certificate as read before its key, with the one extension flag the key must wait for. */
type ParsedFields = Omit<Certificate, 'x509' | 'publicKey'> & { readonly subjectAltNameCritical: boolean };

function parseFields(der: Buffer): ParsedFields {
  const outer = new DerReader(der);
  const certSeq = outer.expect(TAG.SEQUENCE, 'certificate');
  outer.finish('certificate');
  const cert = DerReader.of(certSeq.content);
  const tbsTlv = cert.expect(TAG.SEQUENCE, 'tbsCertificate');
  const tbs = DerReader.of(tbsTlv.content);
  const outerAlg = cert.expect(TAG.SEQUENCE, 'signatureAlgorithm');
  const signature = decodeBitString(cert.expect(TAG.BIT_STRING, 'signatureValue').content).bytes;
  cert.finish('certificate');

  const versionTlv = tbs.optional(ctx(0));
  let version = 1;
  if (versionTlv) {
    const v = DerReader.of(versionTlv.content);
    version = decodeSmallUnsigned(v.expect(TAG.INTEGER, 'version').content) + 1;
    v.finish('version');
    if (version > 3) throw new CertificateParseError('invalid version');
  }
  const serial = decodeInteger(tbs.expect(TAG.INTEGER, 'serialNumber').content);
  const innerAlg = tbs.expect(TAG.SEQUENCE, 'signature');
  if (!innerAlg.raw.equals(outerAlg.raw)) throw new CertificateParseError('inner and outer signature algorithm identifiers don\'t match');
  const rawIssuer = tbs.expect(TAG.SEQUENCE, 'issuer').raw;
  parseName(rawIssuer);
  const validity = DerReader.of(tbs.expect(TAG.SEQUENCE, 'validity').content);
  const notBefore = decodeTime(validity.read());
  const notAfter = decodeTime(validity.read());
  validity.finish('validity');
  const rawSubject = tbs.expect(TAG.SEQUENCE, 'subject').raw;
  const subject = parseName(rawSubject);
  const rawSpki = tbs.expect(TAG.SEQUENCE, 'subjectPublicKeyInfo').raw;
  tbs.optional(ctx(1, true)); // issuerUniqueID
  tbs.optional(ctx(2, true)); // subjectUniqueID
  const extsTlv = tbs.optional(ctx(3));
  tbs.finish('tbsCertificate');
  if (extsTlv && version !== 3) throw new CertificateParseError('extensions in a non-v3 certificate');

  const exts = extsTlv ? parseExtensions(extsTlv) : new Map<string, { critical: boolean; value: Buffer }>();
  let basicConstraints: Certificate['basicConstraints'];
  let keyUsage = 0;
  let extKeyUsage: string[] = [];
  let subjectKeyId: Buffer = Buffer.alloc(0);
  let authorityKeyId: Buffer = Buffer.alloc(0);
  const unhandledCritical: string[] = [];
  const unsupported: string[] = [];
  for (const [oid, { critical, value }] of exts) {
    const neverCritical = NEVER_CRITICAL[oid];
    if (critical && neverCritical !== undefined) throw new GoParseError(neverCritical);
    if (critical && !HANDLED_CRITICAL.has(oid)) unhandledCritical.push(oid);
    switch (oid) {
      case OID.basicConstraints: basicConstraints = parseBasicConstraints(value); break;
      case OID.keyUsage: keyUsage = parseKeyUsage(value); break;
      case OID.extKeyUsage: extKeyUsage = parseExtKeyUsage(value); break;
      case OID.subjectKeyId: subjectKeyId = parseSubjectKeyId(value); break;
      case OID.authorityKeyId: authorityKeyId = parseAuthorityKeyId(value); break;
      // Name and policy constraints restrict what a CA may vouch for. Enforcing them is a
      // project of its own; accepting a constrained chain while ignoring the constraints would
      // authenticate users the CA owner meant to exclude, so such chains are refused (fail closed).
      case OID.nameConstraints: case OID.policyConstraints: case OID.policyMappings: case OID.inhibitAnyPolicy:
        unsupported.push(oid);
        break;
    }
  }
  return {
    der, version, serial,
    ...signatureAlgorithmOf(outerAlg),
    rawTbs: tbsTlv.raw, signature,
    rawIssuer, rawSubject, rawSpki, notBefore, notAfter,
    commonName: subject.commonName, organizations: subject.organizations,
    ...(basicConstraints ? { basicConstraints } : {}),
    keyUsage, extKeyUsage,
    subjectAltName: exts.get(OID.subjectAltName)?.value,
    subjectAltNameCritical: exts.get(OID.subjectAltName)?.critical ?? false,
    subjectKeyId, authorityKeyId,
    unhandledCritical, unsupported,
    sha256: createHash('sha256').update(der).digest('hex'),
  };
}

function signatureAlgorithmOf(tlv: Tlv): { signatureAlgorithm: string; signatureAlgorithmIdentifier: AlgorithmIdentifier } {
  const alg = DerReader.of(tlv.content);
  const oid = decodeOid(alg.expect(TAG.OID, 'algorithm').content);
  const params = alg.done ? Buffer.alloc(0) : alg.read().raw;
  alg.finish('signatureAlgorithm');
  return { signatureAlgorithm: oid, signatureAlgorithmIdentifier: { oid, params } };
}

function parseExtensions(tlv: Tlv): Map<string, { critical: boolean; value: Buffer }> {
  const outer = DerReader.of(tlv.content);
  const seq = DerReader.of(outer.expect(TAG.SEQUENCE, 'extensions').content);
  outer.finish('extensions');
  const out = new Map<string, { critical: boolean; value: Buffer }>();
  while (!seq.done) {
    const ext = DerReader.of(seq.expect(TAG.SEQUENCE, 'extension').content);
    const oid = decodeOid(ext.expect(TAG.OID, 'extnID').content);
    const critTlv = ext.optional(TAG.BOOLEAN);
    // An explicit critical=FALSE breaks DER's DEFAULT rule, but Go and OpenSSL both accept it.
    const critical = critTlv ? decodeBoolean(critTlv.content) : false;
    const value = ext.expect(TAG.OCTET_STRING, 'extnValue').content;
    ext.finish('extension');
    if (out.has(oid)) throw new CertificateParseError('certificate contains duplicate extensions');
    out.set(oid, { critical, value });
  }
  return out;
}

function parseBasicConstraints(value: Buffer): { isCA: boolean; maxPathLen: number | undefined } {
  const outer = DerReader.of(value);
  const seq = DerReader.of(outer.expect(TAG.SEQUENCE, 'basicConstraints').content);
  outer.finish('basicConstraints');
  const caTlv = seq.optional(TAG.BOOLEAN);
  const isCA = caTlv ? decodeBoolean(caTlv.content) : false;
  const lenTlv = seq.optional(TAG.INTEGER);
  seq.finish('basicConstraints');
  return { isCA, maxPathLen: lenTlv ? decodeSmallUnsigned(lenTlv.content) : undefined };
}

function parseKeyUsage(value: Buffer): number {
  const outer = DerReader.of(value);
  const { bytes } = decodeBitString(outer.expect(TAG.BIT_STRING, 'keyUsage').content);
  outer.finish('keyUsage');
  let usage = 0;
  // Go reads the nine defined bits; later bits carry no meaning.
  for (let i = 0; i < 9; i++) {
    const byte = bytes[i >> 3] ?? 0;
    if (byte & (0x80 >> (i & 7))) usage |= 1 << i;
  }
  return usage;
}

function parseExtKeyUsage(value: Buffer): string[] {
  const outer = DerReader.of(value);
  const seq = DerReader.of(outer.expect(TAG.SEQUENCE, 'extKeyUsage').content);
  outer.finish('extKeyUsage');
  const oids: string[] = [];
  while (!seq.done) oids.push(decodeOid(seq.expect(TAG.OID, 'keyPurposeId').content));
  return oids;
}

function parseSubjectKeyId(value: Buffer): Buffer {
  const outer = DerReader.of(value);
  const id = outer.expect(TAG.OCTET_STRING, 'subjectKeyIdentifier').content;
  outer.finish('subjectKeyIdentifier');
  return id;
}

function parseAuthorityKeyId(value: Buffer): Buffer {
  const outer = DerReader.of(value);
  const seq = DerReader.of(outer.expect(TAG.SEQUENCE, 'authorityKeyIdentifier').content);
  outer.finish('authorityKeyIdentifier');
  // keyIdentifier [0] IMPLICIT OCTET STRING; the issuer/serial alternatives are not used.
  return seq.optional(ctx(0, true))?.content ?? Buffer.alloc(0);
}

/** RDNSequence → CN (last wins) and O values, refusing attribute values Go would refuse. */
function parseName(raw: Buffer): { commonName: string; organizations: string[] } {
  const outer = new DerReader(raw);
  const rdns = DerReader.of(outer.expect(TAG.SEQUENCE, 'name').content);
  let commonName = '';
  const organizations: string[] = [];
  while (!rdns.done) {
    const set = DerReader.of(rdns.expect(TAG.SET, 'relativeDistinguishedName').content);
    while (!set.done) {
      const atv = DerReader.of(set.expect(TAG.SEQUENCE, 'attributeTypeAndValue').content);
      const type = decodeOid(atv.expect(TAG.OID, 'attribute type').content);
      const value = decodeString(atv.read());
      atv.finish('attributeTypeAndValue');
      if (type === OID.commonName) commonName = value;
      else if (type === OID.organization) organizations.push(value);
    }
  }
  return { commonName, organizations };
}

// ignoreBOM: a leading U+FEFF is part of the value, as in Go (stripping it turned O="\uFEFFsystem:masters",
// which admission sees as another group, into system:masters).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeString(tlv: Tlv): string {
  const b = tlv.content;
  switch (tlv.tag) {
    case TAG.UTF8_STRING:
      try { return utf8.decode(b); } catch { throw new CertificateParseError('invalid UTF-8 string'); }
    case TAG.PRINTABLE_STRING:
      // Go also admits '*' and '&', which real certificates contain despite X.680.
      if (!/^[A-Za-z0-9 '()+,\-./:=?*&]*$/.test(b.toString('latin1'))) throw new CertificateParseError('invalid PrintableString');
      return b.toString('latin1');
    case TAG.IA5_STRING:
      if (b.some((c) => c > 0x7f)) throw new CertificateParseError('invalid IA5String');
      return b.toString('latin1');
    case TAG.NUMERIC_STRING:
      if (!/^[0-9 ]*$/.test(b.toString('latin1'))) throw new CertificateParseError('invalid NumericString');
      return b.toString('latin1');
    case TAG.T61_STRING:
      // Go 1.23's parseASN1String returns string(value): the bytes, no character set (Latin-1
      // only from Go 1.25). So T61 bytes C3 A9 are the user "é", as in the certificates plat issues.
      return goBytesString(b);
    case TAG.BMP_STRING: {
      if (b.length % 2 !== 0) throw new CertificateParseError('invalid BMPString');
      // Go strips a trailing NUL, then decodes UCS-2 big-endian.
      const body = b.length >= 2 && b[b.length - 1] === 0 && b[b.length - 2] === 0 ? b.subarray(0, b.length - 2) : b;
      // UCS-2, not UTF-16: a surrogate pair would otherwise decode to one character outside the BMP.
      if (!isUcs2(body)) throw new CertificateParseError('invalid BMPString');
      return Buffer.from(body).swap16().toString('utf16le');
    }
    default:
      throw new CertificateParseError('unsupported string type');
  }
}

/** Go's certificate name for error hints: CN, else first O, else the decimal serial. */
export function displayName(c: Certificate): string {
  return c.commonName || c.organizations[0] || `serial:${c.serial}`;
}
