// Reading X.509 certificates (RFC 5280 §4.1) with the structural error texts of Go's x509 parser.
// Used for status.certificate validation, for issuer data when building, and by PKI reuse checks.
import { Buffer } from 'node:buffer';
import { DerReader, TAG, decodeBitString, decodeInteger, decodeInt64, identifierOf, readTlv } from './der.js';
import { CryptoError, step } from './errors.js';
import type { X509Extension } from './extensions.js';
import { parseCertificateExtensions, processExtensions, type ExtensionFields } from './certificate-extensions.js';
import { parseCertificateName } from './certificate-names.js';
import { parseValidity } from './certificate-validity.js';
import type { DistinguishedNameAttribute } from './names.js';
import { decodeFirstPemBlock } from './pem.js';
import { checkPublicKey, readAlgorithmIdentifier, readCertificateSpki, type PublicKeyInfo } from './public-key.js';

/** The parsed certificate; the fields from its extensions are ExtensionFields (certificate-extensions.ts). */
export interface ParsedCertificate extends ExtensionFields {
  der: Uint8Array;
  /** 1, 2 or 3. */
  version: number;
  /** Lower-case hex of the serial's two's-complement bytes. */
  serialNumber: string;
  issuer: DistinguishedNameAttribute[][];
  /** The issuer Name DER, byte-exact. */
  rawIssuer: Uint8Array;
  subject: DistinguishedNameAttribute[][];
  /** The subject Name DER, byte-exact (copied into certificates this one issues). */
  rawSubject: Uint8Array;
  commonName: string;
  organizations: string[];
  organizationalUnits: string[];
  notBefore: Date;
  notAfter: Date;
  publicKey: PublicKeyInfo;
  extensions: X509Extension[];
}

/** Length of the first certificate element in `der` (for splitting concatenated DER). */
export function firstElementLength(der: Uint8Array): number {
  return step('x509: malformed certificate', () => {
    const t = readTlv(der, 0);
    if (identifierOf(t) !== TAG.SEQUENCE) throw new Error();
    return t.end;
  });
}

/** Parses one certificate; bytes after it are an error ('x509: trailing data'). */
export function parseCertificateDer(der: Uint8Array): ParsedCertificate {
  const outer = new DerReader(der);
  const certTlv = step('x509: malformed certificate', () => outer.expect(TAG.SEQUENCE, 'certificate'));
  if (!outer.empty) throw new CryptoError('x509: trailing data');
  const cert = outer.inner(certTlv);
  const tbs = step('x509: malformed tbs certificate', () => cert.inner(cert.expect(TAG.SEQUENCE, 'tbs')));

  const versionTlv = step('x509: malformed version', () => tbs.optional(0xa0));
  let version = 1;
  if (versionTlv !== undefined) {
    const v = step('x509: malformed version', () => {
      const r = tbs.inner(versionTlv);
      const n = decodeInt64(r.content(r.expect(TAG.INTEGER, 'int')));
      r.finish('version');
      return n;
    });
    if (v < 0n) throw new CryptoError('x509: malformed version');
    if (v > 2n) throw new CryptoError('x509: invalid version');
    version = Number(v) + 1;
  }
  const serial = step('x509: malformed serial number', () => tbs.content(tbs.expect(TAG.INTEGER, 'serial')));
  step('x509: malformed serial number', () => decodeInteger(serial));
  if (serial[0]! & 0x80) throw new CryptoError('x509: negative serial number');

  const innerAlg = step('x509: malformed signature algorithm identifier', () => tbs.element(tbs.expect(TAG.SEQUENCE, 'ai')));
  const outerAlgTlv = step('x509: malformed algorithm identifier', () => cert.expect(TAG.SEQUENCE, 'ai'));
  if (!Buffer.from(cert.element(outerAlgTlv)).equals(innerAlg)) {
    throw new CryptoError("x509: inner and outer signature algorithm identifiers don't match");
  }
  step('x509: malformed signature algorithm identifier', () => readAlgorithmIdentifier(new DerReader(innerAlg)));

  const issuerTlv = step('x509: malformed issuer', () => tbs.expect(TAG.SEQUENCE, 'issuer'));
  const issuer = parseCertificateName(der, issuerTlv);
  const validity = step('x509: malformed validity', () => tbs.content(tbs.expect(TAG.SEQUENCE, 'validity')));
  const [notBefore, notAfter] = parseValidity(validity);
  // Go reports an unreadable subject with the issuer's text (parser.go, every release since 1.17).
  const subjectTlv = step('x509: malformed issuer', () => tbs.expect(TAG.SEQUENCE, 'subject'));
  const subject = parseCertificateName(der, subjectTlv);
  const rawKey = readCertificateSpki(tbs);
  const publicKey = checkPublicKey(rawKey);

  if (version > 1) {
    step('x509: malformed issuerUniqueID', () => tbs.optional(0x81));
    step('x509: malformed subjectUniqueID', () => tbs.optional(0x82));
  }
  let extensions: X509Extension[] = [];
  if (version === 3) {
    const extTlv = step('x509: malformed extensions', () => tbs.optional(0xa3));
    if (extTlv !== undefined) {
      extensions = parseCertificateExtensions(tbs.content(extTlv));
    }
  }
  const fields: ExtensionFields = { isCA: false, keyUsage: [], extKeyUsage: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  // Go processes the extensions before it reads the signature, so their errors win over its.
  processExtensions(fields, extensions);
  step('x509: malformed tbs certificate', () => tbs.finish('tbs'));
  step('x509: malformed signature', () => decodeBitString(cert.content(cert.expect(TAG.BIT_STRING, 'signature'))));
  step('x509: malformed certificate', () => cert.finish('certificate'));

  const out: ParsedCertificate = {
    der: der.subarray(certTlv.start, certTlv.end),
    version,
    serialNumber: Buffer.from(serial).toString('hex'),
    issuer: issuer.rdns,
    rawIssuer: der.subarray(issuerTlv.start, issuerTlv.end),
    subject: subject.rdns,
    rawSubject: der.subarray(subjectTlv.start, subjectTlv.end),
    commonName: subject.commonName,
    organizations: subject.organizations,
    organizationalUnits: subject.organizationalUnits,
    notBefore,
    notAfter,
    publicKey,
    extensions,
    ...fields,
  };
  return out;
}

/** parseCertificateDer on the first CERTIFICATE block of PEM text, or on DER bytes. */
export function parseCertificate(input: Uint8Array | string): ParsedCertificate {
  if (typeof input !== 'string' && input[0] === TAG.SEQUENCE) return parseCertificateDer(input);
  const found = decodeFirstPemBlock(input);
  if (found === undefined || found.block.label !== 'CERTIFICATE') throw new CryptoError('PEM block type must be CERTIFICATE');
  return parseCertificateDer(found.block.der);
}
