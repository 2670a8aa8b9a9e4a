// The facade's hot path: CSR parse, proof of possession, status.certificate validation and
// certificate issuance, each served by the backend DEFAULT_BACKENDS names (the WASM core for
// parsing, validation and building), falling back to node:crypto for keys the WASM core does not
// handle (RSA, P-384, P-521). Results and errors are the same whichever backend served them.
import { sign as nodeSign, type KeyObject } from 'node:crypto';
import { DEFAULT_BACKENDS, type Backend } from './backend.js';
import { parseCertificate } from './certificate.js';
import type { ParsedCsr } from './csr.js';
import { DerReader } from './der.js';
import { CryptoError } from './errors.js';
import { encodePem } from './pem.js';
import { readAlgorithmIdentifier } from './public-key.js';
import { identifySignatureAlgorithm, signWithKey, verifySignature } from './signature.js';
import { keyUsagesFromStrings } from './usages.js';
import type { CertificatePemValidation } from './certificate-pem.js';
import { toPrivateKey, samePublicKey } from './keys.js';
import { checkTemplate, resolveIssuer, type CreateCertificateOptions } from './x509-build.js';
import { encodeName } from './names.js';
import { spkiOf } from './keys.js';
import { wasmEd25519Sign, wasmEd25519VerifyCode } from './wasm/ed25519.js';
import { wasmP256Sign, wasmP256VerifyCode } from './wasm/p256.js';
import { wasmParseCsr, wasmParseCsrDer, wasmValidateCertificatePem, type CsrRanges } from './wasm/parse.js';
import { wasmAssembleCertificate, wasmBuildTbs, wasmSigAlgFor, type WasmSigAlg } from './wasm/x509.js';

const ranges = new WeakMap<ParsedCsr, CsrRanges>();

const slice = (der: Uint8Array, r: { offset: number; length: number }) => der.subarray(r.offset, r.offset + r.length);

/** Kubernetes ParseCSR: the first PEM block, its label, the PKCS#10 structure. Throws CryptoError. */
export function parseCsr(request: Uint8Array | string): ParsedCsr {
  const { ranges: r, ...csr } = wasmParseCsr(request);
  ranges.set(csr, r);
  return csr;
}

export function parseCsrDer(der: Uint8Array): ParsedCsr {
  const { ranges: r, ...csr } = wasmParseCsrDer(der);
  ranges.set(csr, r);
  return csr;
}

/** The raw public key bits of a SubjectPublicKeyInfo (the BIT STRING content after its unused-bits octet). */
function publicKeyBits(spki: Uint8Array): Uint8Array {
  const outer = new DerReader(spki);
  const info = outer.inner(outer.expect(0x30, 'SubjectPublicKeyInfo'));
  info.expect(0x30, 'AlgorithmIdentifier');
  return info.content(info.expect(0x03, 'BIT STRING')).subarray(1);
}

/**
 * Proof of possession: the CSR's self-signature over its CertificationRequestInfo, with Go's
 * failure messages. A ParsedCsr not made by parseCsr here (a copy) is re-read from its DER.
 */
export function verifyCsr(csr: ParsedCsr): { backend: 'wasm' | 'node:crypto' | '@noble/post-quantum' } {
  let r = ranges.get(csr);
  let der = csr.der;
  if (r === undefined) {
    const again = parseCsrDer(csr.der.slice());
    r = ranges.get(again)!;
    der = again.der;
    csr = again;
  }
  const info = slice(der, r.certificationRequestInfo);
  const signature = slice(der, r.signature);
  const key = csr.publicKey;
  // Go's getSignatureAlgorithmFromAI decides what the algorithm is (Ed25519 with parameters, say, is
  // unknown); only then does a backend verify.
  const outer = new DerReader(der);
  const request = outer.inner(outer.expect(0x30, 'CertificationRequest'));
  request.next();
  const algorithm = identifySignatureAlgorithm(readAlgorithmIdentifier(request));
  const family = algorithm.details?.family;
  if (r.signatureUnusedBits === 0) {
    if (DEFAULT_BACKENDS.verifyEd25519 === 'wasm' && family === 'Ed25519' && key.algorithm === 'ed25519') {
      if (signature.length !== 64 || wasmEd25519VerifyCode(publicKeyBits(key.spki), info, signature) !== 1) {
        throw new CryptoError('x509: Ed25519 verification failure');
      }
      return { backend: 'wasm' };
    }
    if (DEFAULT_BACKENDS.verifyP256 === 'wasm' && family === 'ECDSA' && algorithm.details?.hash === 'sha256' && key.algorithm === 'ec' && key.curve === 'P-256') {
      if (wasmP256VerifyCode(publicKeyBits(key.spki), info, signature) !== 1) throw new CryptoError('x509: ECDSA verification failure');
      return { backend: 'wasm' };
    }
  }
  // Everything else (RSA, PKCS#1 v1.5 and PSS, P-384, P-521, odd encodings) through node:crypto;
  // ML-DSA through @noble/post-quantum (signature.ts decides, by the algorithm Go identified).
  const bits = request.content(request.expect(0x03, 'BIT STRING'));
  verifySignature(algorithm, info, rightAlign(bits), key);
  return { backend: family === 'ML-DSA' ? '@noble/post-quantum' : 'node:crypto' };
}

/** Go's BitString.RightAlign over BIT STRING content (first octet: unused bits). */
function rightAlign(content: Uint8Array): Uint8Array {
  const unused = content[0] ?? 0;
  const bytes = content.subarray(1);
  if (unused === 0 || bytes.length === 0) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = bytes.length - 1; i >= 0; i--) {
    out[i] = (bytes[i]! >>> unused) | (i > 0 ? (bytes[i - 1]! << (8 - unused)) & 0xff : 0);
  }
  return out;
}

export function validateCertificatePem(data: Uint8Array | string): CertificatePemValidation {
  return wasmValidateCertificatePem(data);
}

export interface IssuePolicy {
  /** Kubernetes usage names (spec.usages). */
  readonly usages: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Issue a CA certificate (basicConstraints CA:TRUE). Default false. */
  readonly isCA?: boolean;
}

export interface IssuingCa {
  readonly certificatePem: string;
  readonly privateKey: KeyObject | string;
}

export interface IssueResult {
  readonly certificatePem: string;
  readonly der: Uint8Array;
  /** Which implementation did each step (shown by `plat bench crypto`). */
  readonly backend: { readonly parse: string; readonly verify: string; readonly build: string; readonly sign: string };
}

export interface PreparedCa {
  issuerName: Uint8Array;
  /**
   * The CA certificate's subjectKeyIdentifier, copied into the leaves' authorityKeyIdentifier;
   * undefined when it has none (or an empty one): Go then writes no AKI, and neither do we.
   */
  issuerSki: Uint8Array | undefined;
  key: KeyObject;
  sigAlg: WasmSigAlg;
  /** Raw private key for the WASM signers (P-256 scalar or Ed25519 seed), when they are the default. */
  wasmKey?: { kind: 'p256' | 'ed25519'; bytes: Uint8Array };
}

// A CA signs many certificates: its certificate is parsed and its key imported once.
const caCache = new Map<string, PreparedCa>();
const keyIds = new WeakMap<KeyObject, number>();
let nextKeyId = 1;

/** The CA's issuer name, key id, key and signature algorithm, cached (also used by issue-batch.ts). */
export function prepareCa(ca: IssuingCa): PreparedCa {
  const key = toPrivateKey(ca.privateKey);
  let kid = keyIds.get(key);
  if (kid === undefined) keyIds.set(key, (kid = nextKeyId++));
  const cacheKey = `${typeof ca.privateKey === 'string' ? ca.privateKey : `#${kid}`}\n${ca.certificatePem}`;
  const hit = caCache.get(cacheKey);
  if (hit) return hit;
  const cert = parseCertificate(ca.certificatePem);
  if (!samePublicKey(key, cert.publicKey.spki)) throw new CryptoError("x509: provided PrivateKey doesn't match parent's PublicKey");
  let sigAlg: WasmSigAlg;
  let wasmKey: PreparedCa['wasmKey'];
  const jwk = () => Buffer.from(key.export({ format: 'jwk' }).d ?? '', 'base64url');
  if (key.asymmetricKeyType === 'ed25519') {
    sigAlg = 'Ed25519';
    if (DEFAULT_BACKENDS.signEd25519 === 'wasm') wasmKey = { kind: 'ed25519', bytes: new Uint8Array(jwk()) };
  } else if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    sigAlg = curve === 'secp384r1' ? 'ecdsa-with-SHA384' : curve === 'secp521r1' ? 'ecdsa-with-SHA512' : 'ecdsa-with-SHA256';
    if (sigAlg === 'ecdsa-with-SHA256' && DEFAULT_BACKENDS.signP256 === 'wasm') wasmKey = { kind: 'p256', bytes: new Uint8Array(jwk()) };
  } else if (key.asymmetricKeyType === 'rsa') sigAlg = 'sha256WithRSAEncryption';
  else throw new CryptoError(`x509: unsupported signing key type ${String(key.asymmetricKeyType)}`);
  const prepared: PreparedCa = {
    issuerName: cert.rawSubject, issuerSki: cert.subjectKeyId?.length ? cert.subjectKeyId : undefined, key, sigAlg,
    ...(wasmKey ? { wasmKey } : {}),
  };
  if (caCache.size >= 64) caCache.delete(caCache.keys().next().value!);
  caCache.set(cacheKey, prepared);
  return prepared;
}

function signTbs(ca: PreparedCa, tbs: Uint8Array): { signature: Uint8Array; backend: string } {
  if (ca.wasmKey?.kind === 'p256') return { signature: wasmP256Sign(ca.wasmKey.bytes, tbs), backend: 'wasm' };
  if (ca.wasmKey?.kind === 'ed25519') return { signature: wasmEd25519Sign(ca.wasmKey.bytes, tbs), backend: 'wasm' };
  if (ca.sigAlg === 'Ed25519') return { signature: new Uint8Array(nodeSign(null, tbs, ca.key)), backend: 'node:crypto' };
  return { signature: signWithKey(ca.key, tbs), backend: 'node:crypto' };
}

/**
 * Issues a certificate for `request` (PEM text, or an already parsed CSR): proof of possession,
 * then a v3 certificate with the CSR's subject as Go marshals the parsed pkix.Name again, its
 * public key, and its DNS, email, IP and URI names (what Go's template from the parsed CSR
 * carries; other GeneralName forms are dropped), the policy's usages and validity, the CA
 * certificate's subject as issuer, and the CA's signature. As Go's CreateCertificate: a
 * subjectKeyIdentifier only when policy.isCA, an authorityKeyIdentifier only when the CA
 * certificate has an SKI to copy and the subject differs from the CA's.
 */
export function issueCertificate(request: string | Uint8Array | ParsedCsr, ca: IssuingCa, policy: IssuePolicy,
  options: { serialNumber?: Uint8Array } = {}): IssueResult {
  let csr = typeof request === 'string' || request instanceof Uint8Array ? parseCsr(request) : request;
  const verified = verifyCsr(csr);
  // Subject and names from what was verified: a ParsedCsr not made here (a copy) is read again.
  if (!ranges.has(csr)) csr = parseCsrDer(csr.der.slice());
  const r = ranges.get(csr)!;
  let usages;
  try {
    usages = keyUsagesFromStrings(policy.usages);
  } catch (e) {
    throw new CryptoError((e as Error).message);
  }
  const prepared = prepareCa(ca);
  const isCA = policy.isCA ?? false;
  let tbs: Uint8Array;
  try {
    tbs = wasmBuildTbs({
      ...(options.serialNumber ? { serialNumber: options.serialNumber } : {}),
      notBefore: policy.notBefore,
      notAfter: policy.notAfter,
      isCA,
      keyUsage: usages.keyUsage,
      extKeyUsage: usages.extKeyUsage,
      // The builder writes them in Go's order (DNS, email, IP, URI) and IPv4-mapped IPs as 4 bytes.
      dnsNames: csr.dnsNames,
      emailAddresses: csr.emailAddresses,
      ipAddresses: csr.ipAddresses,
      uris: csr.uris,
      issuerNameDer: prepared.issuerName,
      subjectNameDer: slice(csr.der, r.subject),
      goSubject: true,
      spkiDer: csr.publicKey.spki,
      sigAlg: prepared.sigAlg,
      subjectKeyIdentifier: isCA,
      authorityKeyIdentifier: prepared.issuerSki !== undefined,
      issuerSki: prepared.issuerSki,
    });
  } catch (e) {
    // Go's texts (asn1.Marshal's for the subject) come back from CreateCertificate unwrapped.
    if (e instanceof CryptoError) throw e;
    throw new CryptoError(`x509: ${(e as Error).message}`);
  }
  const signed = signTbs(prepared, tbs);
  const der = wasmAssembleCertificate(tbs, prepared.sigAlg, signed.signature);
  return {
    certificatePem: encodePem('CERTIFICATE', der), der,
    backend: { parse: 'wasm', verify: verified.backend, build: 'wasm', sign: signed.backend },
  };
}

/**
 * Creates and signs a certificate from a template (CA certificates, serving and client
 * certificates of the PKI helpers): the same inputs and checks as the TypeScript reference
 * builder, the TBSCertificate built by the WASM core, the signature by node:crypto. Key
 * identifiers as Go's CreateCertificate: an SKI for a CA (or the template's own), an AKI holding
 * the issuer's SKI when the issuer has one and its Name differs from the subject (else the
 * template's own, if any); so a self-signed CA has no AKI and a leaf no SKI.
 */
export function createCertificate(opts: CreateCertificateOptions): { certificatePem: string; der: Uint8Array } {
  const t = opts.template;
  checkTemplate(t);
  const spki = spkiOf(opts.publicKey);
  const subject = t.subjectDer ?? encodeName(t.subject);
  const signer = toPrivateKey(opts.signer);
  const issuer = resolveIssuer(opts.issuer, signer);
  const issuerName = issuer?.name ?? subject;
  const issuerSki = issuer?.keyId;
  const sigAlg = wasmSigAlgFor(signer);
  const tbs = wasmBuildTbs({
    serialNumber: t.serialNumber, notBefore: t.notBefore, notAfter: t.notAfter, isCA: t.isCA, pathLen: t.pathLen,
    keyUsage: t.keyUsage, extKeyUsage: t.extKeyUsage, dnsNames: t.dnsNames, ipAddresses: t.ipAddresses,
    emailAddresses: t.emailAddresses, uris: t.uris, issuerNameDer: issuerName, subjectNameDer: subject, spkiDer: spki,
    sigAlg, issuerSki, subjectKeyId: t.subjectKeyId, authorityKeyId: t.authorityKeyId,
  });
  const der = wasmAssembleCertificate(tbs, sigAlg, signWithKey(signer, tbs));
  return { certificatePem: encodePem('CERTIFICATE', der), der };
}

/**
 * Signs `data` with a private key the way certificates are signed here: ECDSA (DER) with the
 * curve's hash, RSA PKCS#1 v1.5 with SHA-256, pure Ed25519. The backend is the default of
 * backend.ts for the key type.
 */
export function sign(privateKey: KeyObject | string, data: Uint8Array): { signature: Uint8Array; backend: Backend } {
  const key = toPrivateKey(privateKey);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && (curve === 'prime256v1' || curve === 'P-256') && DEFAULT_BACKENDS.signP256 === 'wasm') {
    return { signature: wasmP256Sign(rawPrivateKey(key), data), backend: 'wasm' };
  }
  if (key.asymmetricKeyType === 'ed25519' && DEFAULT_BACKENDS.signEd25519 === 'wasm') {
    return { signature: wasmEd25519Sign(rawPrivateKey(key), data), backend: 'wasm' };
  }
  if (key.asymmetricKeyType === 'ed25519') return { signature: new Uint8Array(nodeSign(null, data, key)), backend: 'node:crypto' };
  return { signature: signWithKey(key, data), backend: 'node:crypto' };
}

const rawKeys = new WeakMap<KeyObject, Uint8Array>();
/** The P-256 scalar or Ed25519 seed of a private key, exported once per KeyObject. */
function rawPrivateKey(key: KeyObject): Uint8Array {
  let raw = rawKeys.get(key);
  if (!raw) rawKeys.set(key, (raw = new Uint8Array(Buffer.from(key.export({ format: 'jwk' }).d ?? '', 'base64url'))));
  return raw;
}
