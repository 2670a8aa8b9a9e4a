// Building X.509 v3 certificates (RFC 5280) in strict DER. The TBSCertificate is assembled here in
// TypeScript; signing goes to node:crypto (a later WASM backend replaces both behind the facade).
import { createHash, type KeyObject } from 'node:crypto';
import { randomSerial } from './serial.js';
import { parseCertificate } from './certificate.js';
import { DerReader } from './der.js';
import { bitString, boolean, explicit, octetString, oid, seq, smallInteger, time, tlv, unsignedInteger } from './der-write.js';
import { CryptoError } from './errors.js';
import { encodeSubjectAltNames, hasAltNames } from './general-names.js';
import { samePublicKey, spkiOf, toPrivateKey } from './keys.js';
import { encodeName, type SubjectInput } from './names.js';
import { OID } from './oids.js';
import { encodePem } from './pem.js';
import { readSubjectPublicKeyInfo } from './public-key.js';
import { signWithKey, signatureAlgorithmFor } from './signature.js';
import { extKeyUsageOids, keyUsageBits } from './usages.js';

// Optional fields also accept an explicit `undefined` so callers can pass `x: maybe` under
// exactOptionalPropertyTypes.
export interface CertificateTemplate {
  /** Written as Go's pkix.Name.ToRDNSequence: C, ST, L, street, postalCode, O, OU, CN, serialNumber; one RDN per type. */
  subject: SubjectInput;
  /** The subject Name DER to copy byte-exact (a CSR's subject); `subject` is then ignored. */
  subjectDer?: Uint8Array | undefined;
  /** Unsigned big-endian magnitude; default 128 random bits. At most 20 octets, not zero. */
  serialNumber?: Uint8Array | undefined;
  notBefore: Date;
  notAfter: Date;
  isCA?: boolean | undefined;
  /** Only with isCA; 0 is written (Go's MaxPathLenZero). */
  pathLen?: number | undefined;
  /** Kubernetes usage names: 'digital signature', 'key encipherment', 'cert sign', 'crl sign', ... ('signing' is an alias). */
  keyUsage?: string[] | undefined;
  /** 'server auth', 'client auth', ... ('s/mime' is an alias of 'email protection'). */
  extKeyUsage?: string[] | undefined;
  dnsNames?: string[] | undefined;
  ipAddresses?: string[] | undefined;
  emailAddresses?: string[] | undefined;
  uris?: string[] | undefined;
  /**
   * Go's template.SubjectKeyId: written as given. Empty or omitted: a CA gets the SHA-1 of its key
   * bits (RFC 5280 §4.2.1.2 method 1), anything else none.
   */
  subjectKeyId?: Uint8Array | undefined;
  /**
   * Go's template.AuthorityKeyId: written only when the issuer's key id does not take its place
   * (self-signed, the subject equal to the issuer's, or an issuer without one).
   */
  authorityKeyId?: Uint8Array | undefined;
}

export interface CertificateIssuer {
  certificatePem: string;
  privateKey: KeyObject | string;
}

export interface CreateCertificateOptions {
  template: CertificateTemplate;
  /**
   * The subject's public key: a KeyObject (public or private), SPKI DER, or PEM (`PUBLIC KEY`, or
   * a private key, whose public half is taken), as node:crypto's createPublicKey reads it.
   */
  publicKey: KeyObject | Uint8Array | string;
  /** Omitted: self-signed by `signer`. */
  issuer?: CertificateIssuer | undefined;
  /** The issuer's private key (must match issuer.privateKey and the issuer certificate), or the own key when self-signed. */
  signer: KeyObject | string;
}

const sha1 = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha1').update(b).digest());

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING value. */
export function subjectKeyId(spki: Uint8Array): Uint8Array {
  return sha1(readSubjectPublicKeyInfo(new DerReader(spki)).bits);
}

function serialOf(given: Uint8Array | undefined): Uint8Array {
  if (given === undefined) return randomSerial();
  if (!(given instanceof Uint8Array)) throw new TypeError('serialNumber must be a Uint8Array');
  let i = 0;
  while (i < given.length && given[i] === 0) i++;
  const magnitude = given.subarray(i);
  if (magnitude.length === 0) throw new RangeError('serialNumber must not be zero');
  if (magnitude.length + (magnitude[0]! & 0x80 ? 1 : 0) > 20) throw new RangeError('serialNumber is longer than 20 octets');
  return magnitude;
}

export function checkTemplate(t: CertificateTemplate): void {
  if (typeof t !== 'object' || t === null || typeof t.subject !== 'object' || t.subject === null) {
    throw new TypeError('template.subject is required');
  }
  if (!(t.notBefore instanceof Date) || !(t.notAfter instanceof Date)) throw new TypeError('notBefore and notAfter must be Dates');
  if (!(t.notAfter.getTime() > t.notBefore.getTime())) throw new RangeError('notAfter must be after notBefore');
  if (t.pathLen !== undefined) {
    if (!t.isCA) throw new RangeError('pathLen requires isCA');
    if (!Number.isSafeInteger(t.pathLen) || t.pathLen < 0) throw new RangeError('pathLen must be a non-negative integer');
  }
}

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return critical ? seq(oid(id), boolean(true), octetString(value)) : seq(oid(id), octetString(value));
}

/**
 * The issuer Name (byte-exact) and subjectKeyIdentifier (undefined when it has none) of `issuer`,
 * after checking that the issuer key and the signer both belong to the issuer certificate;
 * undefined when self-signed.
 */
export function resolveIssuer(issuer: CertificateIssuer | undefined, signer: KeyObject): { name: Uint8Array; keyId: Uint8Array | undefined } | undefined {
  if (issuer === undefined) return undefined;
  const issuerCert = parseCertificate(issuer.certificatePem);
  const issuerKey = toPrivateKey(issuer.privateKey);
  if (!samePublicKey(issuerKey, issuerCert.publicKey.spki) || !samePublicKey(signer, issuerCert.publicKey.spki)) {
    throw new CryptoError("x509: provided PrivateKey doesn't match parent's PublicKey");
  }
  return { name: issuerCert.rawSubject, keyId: issuerCert.subjectKeyId };
}

function keyIdOf(given: Uint8Array | undefined, name: string): Uint8Array {
  if (given === undefined) return new Uint8Array(0);
  if (!(given instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
  return given;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Go's CreateCertificate key identifiers: the AKI is the template's, replaced by the parent's SKI
 * when the issuer Name differs from the subject (byte for byte) and the parent has one; the SKI is
 * the template's, or generated for a CA only. Empty: no extension.
 */
export function goKeyIds(t: CertificateTemplate, issuerName: Uint8Array, subject: Uint8Array, parentSki: Uint8Array | undefined,
  spki: Uint8Array): { ski: Uint8Array; aki: Uint8Array } {
  let aki = keyIdOf(t.authorityKeyId, 'authorityKeyId');
  if (!sameBytes(issuerName, subject) && parentSki !== undefined && parentSki.length > 0) aki = parentSki;
  let ski = keyIdOf(t.subjectKeyId, 'subjectKeyId');
  if (ski.length === 0 && t.isCA) ski = subjectKeyId(spki);
  return { ski, aki };
}

/** Creates and signs a certificate. Backend: TypeScript (DER), node:crypto (signature). */
export function createCertificate(opts: CreateCertificateOptions): { certificatePem: string; der: Uint8Array } {
  const t = opts.template;
  checkTemplate(t);
  const spki = spkiOf(opts.publicKey);
  const subject = t.subjectDer ?? encodeName(t.subject);
  const signer = toPrivateKey(opts.signer);

  const issuer = resolveIssuer(opts.issuer, signer);
  const issuerName = issuer?.name ?? subject;
  // Self-signed, Go's parent is the template: its SubjectKeyId, but the names are equal anyway.
  const { ski, aki } = goKeyIds(t, issuerName, subject, issuer === undefined ? t.subjectKeyId : issuer.keyId, spki);

  // Go's extension order: keyUsage, extKeyUsage, basicConstraints, SKI, AKI, SAN.
  const exts: Uint8Array[] = [];
  if (t.keyUsage !== undefined && t.keyUsage.length > 0) {
    const ku = keyUsageBits(t.keyUsage);
    exts.push(extension(OID.keyUsage, true, bitString(ku.bytes, ku.unusedBits)));
  }
  if (t.extKeyUsage !== undefined && t.extKeyUsage.length > 0) {
    exts.push(extension(OID.extKeyUsage, false, seq(...extKeyUsageOids(t.extKeyUsage).map(oid))));
  }
  const bc = t.isCA ? seq(boolean(true), ...(t.pathLen !== undefined ? [smallInteger(t.pathLen)] : [])) : seq();
  exts.push(extension(OID.basicConstraints, true, bc));
  if (ski.length > 0) exts.push(extension(OID.subjectKeyIdentifier, false, octetString(ski)));
  if (aki.length > 0) exts.push(extension(OID.authorityKeyIdentifier, false, seq(tlv(0x80, aki))));
  const names = { dnsNames: t.dnsNames ?? [], ipAddresses: t.ipAddresses ?? [], emailAddresses: t.emailAddresses ?? [], uris: t.uris ?? [] };
  if (hasAltNames(names)) {
    // RFC 5280 §4.2.1.6: critical when the subject is empty.
    exts.push(extension(OID.subjectAltName, subject.length === 2, encodeSubjectAltNames(names)));
  }

  const algorithm = signatureAlgorithmFor(signer);
  const tbs = seq(
    explicit(0, smallInteger(2)),
    unsignedInteger(serialOf(t.serialNumber)),
    algorithm,
    issuerName,
    seq(time(t.notBefore), time(t.notAfter)),
    subject,
    spki,
    explicit(3, seq(...exts)),
  );
  const der = seq(tbs, algorithm, bitString(signWithKey(signer, tbs)));
  return { certificatePem: encodePem('CERTIFICATE', der), der };
}
