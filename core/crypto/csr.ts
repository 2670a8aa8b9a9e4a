// PKCS#10 CertificationRequest (RFC 2986) parsing and proof-of-possession, matching Kubernetes'
// ParseCSR + CheckSignature: same acceptance, same (Go) error texts. Backend: TypeScript for PEM/DER,
// node:crypto for the signature check (@noble/post-quantum for ML-DSA).
import { DerReader, TAG, decodeBitString, decodeInt64, decodeOid, rightAlign } from './der.js';
import { parseExtensions, type X509Extension } from './extensions.js';
import { CryptoError } from './errors.js';
import { parseSubjectAltNames } from './general-names.js';
import { parseName, type DistinguishedNameAttribute } from './names.js';
import { OID } from './oids.js';
import { decodeFirstPemBlock } from './pem.js';
import { checkPublicKey, readAlgorithmIdentifier, readSubjectPublicKeyInfo, type PublicKeyInfo } from './public-key.js';
import { identifySignatureAlgorithm, verifySignature, type SignatureAlgorithm } from './signature.js';

export type CsrExtension = X509Extension;

export interface ParsedCsr {
  /** The CertificationRequest DER. */
  der: Uint8Array;
  /** RDNs in order; multi-valued RDNs are kept together. */
  subject: DistinguishedNameAttribute[][];
  /** Go's Subject.CommonName: the last string-valued CN (there is normally one), or ''. */
  commonName: string;
  /** All O values in order. */
  organizations: string[];
  dnsNames: string[];
  /** Go's net.IP.String() form. */
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** Extensions from the extensionRequest attribute(s). */
  extensions: CsrExtension[];
  publicKey: PublicKeyInfo;
  /** 'ecdsa-with-SHA256', 'sha256WithRSAEncryption', 'Ed25519', 'rsassa-pss', ...; the dotted OID when unknown. */
  signatureAlgorithm: string;
}

interface Signed {
  tbs: Uint8Array;
  signature: Uint8Array;
  algorithm: SignatureAlgorithm;
  publicKey: PublicKeyInfo;
}

// What verifyCsr needs but callers should not touch; keyed by the object parseCsr returned.
const signedParts = new WeakMap<ParsedCsr, Signed>();

/** Kubernetes ParseCSR: the first PEM block must be a CERTIFICATE REQUEST; the rest of the input is ignored. */
export function parseCsr(request: Uint8Array | string): ParsedCsr {
  const found = decodeFirstPemBlock(request);
  if (found === undefined || found.block.label !== 'CERTIFICATE REQUEST') {
    throw new CryptoError('PEM block type must be CERTIFICATE REQUEST');
  }
  return parseOwned(found.block.der);
}

/** Go's x509.ParseCertificateRequest on DER. */
export function parseCsrDer(der: Uint8Array): ParsedCsr {
  if (!(der instanceof Uint8Array)) throw new TypeError('CSR DER must be a Uint8Array');
  // A private copy: what verifyCsr checks must be exactly what was parsed, whatever the caller does later.
  return parseOwned(der.slice());
}

function parseOwned(der: Uint8Array): ParsedCsr {
  // 1. Structure, in Go's field order (asn1.Unmarshal of certificateRequest).
  const top = new DerReader(der);
  const csr = top.inner(top.expect(TAG.SEQUENCE, 'certificateRequest'));
  const tbsTlv = csr.expect(TAG.SEQUENCE, 'tbsCertificateRequest');
  const tbs = csr.inner(tbsTlv);
  decodeInt64(tbs.content(tbs.expect(TAG.INTEGER, 'int')));
  const subjectTlv = tbs.next();
  const rawKey = readSubjectPublicKeyInfo(tbs);
  const attrs = tbs.inner(tbs.expect(0xa0, '[]asn1.RawValue'));
  const rawAttributes: Uint8Array[] = [];
  while (!attrs.empty) rawAttributes.push(attrs.element(attrs.next()));
  tbs.finish('tbsCertificateRequest');
  const sigAlg = readAlgorithmIdentifier(csr);
  const sig = decodeBitString(csr.content(csr.expect(TAG.BIT_STRING, 'BitString')));
  csr.finish('certificateRequest');
  if (!top.empty) throw new CryptoError('asn1: syntax error: trailing data');

  // 2. Meaning, in Go's order: public key, subject, extensions, SANs.
  const publicKey = checkPublicKey(rawKey);
  const name = parseName(der, subjectTlv);
  const extensions = requestedExtensions(rawAttributes);
  let sans = { dnsNames: [] as string[], ipAddresses: [] as string[], emailAddresses: [] as string[], uris: [] as string[] };
  for (const ext of extensions) if (ext.oid === OID.subjectAltName) sans = parseSubjectAltNames(ext.value);

  const algorithm = identifySignatureAlgorithm(sigAlg);
  const parsed: ParsedCsr = {
    der,
    subject: name.rdns,
    commonName: name.commonName,
    organizations: name.organizations,
    ...sans,
    extensions,
    publicKey,
    signatureAlgorithm: algorithm.name,
  };
  signedParts.set(parsed, { tbs: tbs.buf.subarray(tbsTlv.start, tbsTlv.end), signature: rightAlign(sig), algorithm, publicKey });
  return parsed;
}

/** Go's parseCSRExtensions: attributes that do not parse are skipped; a bad extensionRequest is an error. */
function requestedExtensions(rawAttributes: Uint8Array[]): CsrExtension[] {
  const out: CsrExtension[] = [];
  const seen = new Set<string>();
  for (const raw of rawAttributes) {
    let first: Uint8Array;
    try {
      const r = new DerReader(raw);
      const attr = r.inner(r.expect(TAG.SEQUENCE, 'pkcs10Attribute'));
      const id = decodeOid(attr.content(attr.expect(TAG.OID, 'ObjectIdentifier')));
      const values = attr.inner(attr.expect(TAG.SET, '[]asn1.RawValue'));
      if (values.empty || id !== OID.extensionRequest) continue;
      first = values.element(values.next());
      // Go's asn1.Unmarshal reads every value: one that does not read makes it skip the attribute.
      while (!values.empty) values.next();
    } catch {
      continue;
    }
    for (const ext of parseExtensions(first)) {
      if (seen.has(ext.oid)) throw new CryptoError('x509: certificate request contains duplicate requested extensions');
      seen.add(ext.oid);
      out.push(ext);
    }
  }
  return out;
}

/**
 * Proof of possession: the CSR's self-signature must verify with its own public key (Go's
 * CertificateRequest.CheckSignature, SHA-1 allowed as Go allows it for CSRs). Throws CryptoError with
 * Go's message.
 */
export function verifyCsr(csr: ParsedCsr): { backend: 'node:crypto' | '@noble/post-quantum' } {
  // A ParsedCsr that did not come from parseCsr (e.g. copied) is re-read from its DER, never trusted.
  let signed = signedParts.get(csr);
  if (signed === undefined) {
    const again = parseOwned(csr.der.slice());
    signed = signedParts.get(again)!;
  }
  verifySignature(signed.algorithm, signed.tbs, signed.signature, signed.publicKey);
  return { backend: signed.algorithm.details?.family === 'ML-DSA' ? '@noble/post-quantum' : 'node:crypto' };
}

/**
 * CheckSignature with another public key in the request's place: whether the key at hand signed
 * this request (client-go's ensureCompatible, which reuses a CSR found under its deterministic
 * name only if the local key made it). Throws CryptoError with Go's message.
 */
export function verifyCsrWithKey(csr: ParsedCsr, spki: Uint8Array): void {
  const signed = signedParts.get(csr) ?? signedParts.get(parseOwned(csr.der.slice()))!;
  verifySignature(signed.algorithm, signed.tbs, signed.signature, checkPublicKey(readSubjectPublicKeyInfo(new DerReader(spki))));
}
