// Reading X.509 certificates (RFC 5280 §4.1) with the structural error texts of Go's x509 parser.
// Used for status.certificate validation, for issuer data when building, and by PKI reuse checks.
import { Buffer } from 'node:buffer';
import { DerReader, TAG, decodeBitString, decodeInteger, decodeInt64, decodeOid, decodeTime, identifierOf, readTlv, type Tlv } from './der.js';
import { CryptoError, step } from './errors.js';
import { parseExtensions, type X509Extension } from './extensions.js';
import { parseSubjectAltNames } from './general-names.js';
import { parseCertificateName } from './certificate-names.js';
import type { DistinguishedNameAttribute } from './names.js';
import { OID } from './oids.js';
import { decodeFirstPemBlock } from './pem.js';
import { checkPublicKey, readAlgorithmIdentifier, readSubjectPublicKeyInfo, type PublicKeyInfo } from './public-key.js';
import { EXT_KEY_USAGE_NAMES, KEY_USAGE_NAMES } from './usages.js';

export interface ParsedCertificate {
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
  isCA: boolean;
  pathLen?: number;
  keyUsage: string[];
  extKeyUsage: string[];
  subjectKeyId?: Uint8Array;
  authorityKeyId?: Uint8Array;
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
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
  const [notBefore, notAfter] = step('x509: malformed validity', () => {
    const v = tbs.inner(tbs.expect(TAG.SEQUENCE, 'validity'));
    const a = v.next();
    const b = v.next();
    v.finish('validity');
    return [decodeTime(identifierOf(a), v.content(a)), decodeTime(identifierOf(b), v.content(b))] as const;
  });
  // Go reports an unreadable subject with the issuer's text (parser.go, every release since 1.17).
  const subjectTlv = step('x509: malformed issuer', () => tbs.expect(TAG.SEQUENCE, 'subject'));
  const subject = parseCertificateName(der, subjectTlv);
  const rawKey = step('x509: malformed spki', () => readSubjectPublicKeyInfo(tbs));
  const publicKey = checkPublicKey(rawKey);

  if (version > 1) {
    step('x509: malformed issuerUniqueID', () => tbs.optional(0x81));
    step('x509: malformed subjectUniqueID', () => tbs.optional(0x82));
  }
  let extensions: X509Extension[] = [];
  if (version === 3) {
    const extTlv = step('x509: malformed extensions', () => tbs.optional(0xa3));
    if (extTlv !== undefined) {
      extensions = step('x509: malformed extension', () => parseExtensions(tbs.content(extTlv)));
      const seen = new Set<string>();
      for (const e of extensions) {
        if (seen.has(e.oid)) throw new CryptoError('x509: certificate contains duplicate extensions');
        seen.add(e.oid);
      }
    }
  }
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
    isCA: false,
    keyUsage: [],
    extKeyUsage: [],
    dnsNames: [],
    ipAddresses: [],
    emailAddresses: [],
    uris: [],
  };
  for (const e of extensions) applyExtension(out, e);
  return out;
}

/** parseCertificateDer on the first CERTIFICATE block of PEM text, or on DER bytes. */
export function parseCertificate(input: Uint8Array | string): ParsedCertificate {
  if (typeof input !== 'string' && input[0] === TAG.SEQUENCE) return parseCertificateDer(input);
  const found = decodeFirstPemBlock(input);
  if (found === undefined || found.block.label !== 'CERTIFICATE') throw new CryptoError('PEM block type must be CERTIFICATE');
  return parseCertificateDer(found.block.der);
}

function applyExtension(c: ParsedCertificate, e: X509Extension): void {
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
    default:
      return;
  }
}
