// The inputs of every row, made once per key type before anything is timed: a CA (key and
// self-signed certificate), a CSR from a separate key, a two-certificate chain, a message to sign,
// and the issuing policy, made with the TypeScript + node:crypto reference code (so they exist even
// when the WASM core does not build). Plain data only (bytes, strings, dates), so the same inputs cross into
// worker threads by structured clone and every implementation starts from identical bytes.
import { randomBytes } from 'node:crypto';
import { Buffer } from 'node:buffer';
import {
  createCertificate,
  createCsr,
  generateKeyPair,
  parseCertificate,
  parseCsrTypescript,
  type GeneratedKeyPair,
  type KeyType,
} from '../../core/crypto/index.js';
import { KEY_TYPE_LABEL, type BenchKeyType } from './impl.js';

export interface BenchKey {
  /** PKCS#8 'PRIVATE KEY' PEM. */
  privateKeyPem: string;
  /** P-256: the 32-byte scalar; Ed25519: the 32-byte seed. */
  privateRaw: Uint8Array;
  /** P-256: the 65-byte uncompressed point; Ed25519: the 32-byte key. */
  publicRaw: Uint8Array;
  /** SubjectPublicKeyInfo DER. */
  spki: Uint8Array;
}

export interface BenchInputs {
  keyType: BenchKeyType;
  ca: BenchKey & {
    certificatePem: string;
    certificateDer: Uint8Array;
    /** The CA certificate's subject Name DER (the issuer Name of what it issues). */
    subjectNameDer: Uint8Array;
    subjectKeyId: Uint8Array;
  };
  csr: {
    pem: string;
    der: Uint8Array;
    /** The CertificationRequestInfo DER: what the CSR's signature covers. */
    info: Uint8Array;
    /** The signature BIT STRING's bytes (ECDSA: DER Ecdsa-Sig-Value; Ed25519: 64 bytes). */
    signature: Uint8Array;
    subjectNameDer: Uint8Array;
    /** The subjectAltName extnValue the CSR requests (GeneralNames DER). */
    subjectAltNameDer: Uint8Array;
    key: BenchKey;
  };
  /** A leaf issued by the CA, then the CA certificate: what `status.certificate` usually holds. */
  chainPem: string;
  /** What `sign` rows sign: 32 bytes (a digest-sized message). */
  message: Uint8Array;
  policy: { usages: string[]; notBefore: Date; notAfter: Date };
}

const NODE_KEY_TYPE: Readonly<Record<BenchKeyType, KeyType>> = { p256: 'ecdsa-p256', ed25519: 'ed25519' };

/** A DER element: where it starts, where its contents start, where it ends. */
export interface DerSpan { start: number; body: number; end: number }

function span(der: Uint8Array, at: number): DerSpan {
  const first = der[at + 1]!;
  if (first < 0x80) return { start: at, body: at + 2, end: at + 2 + first };
  let len = 0;
  for (let i = 0; i < (first & 0x7f); i++) len = len * 256 + der[at + 2 + i]!;
  const body = at + 2 + (first & 0x7f);
  return { start: at, body, end: body + len };
}

/** The elements inside the constructed element at `at` (trusted input: our own CSR). */
export function derChildren(der: Uint8Array, at = 0): DerSpan[] {
  const outer = span(der, at);
  const out: DerSpan[] = [];
  for (let p = outer.body; p < outer.end; p = out[out.length - 1]!.end) out.push(span(der, p));
  return out;
}

function b64url(s: string | undefined): Uint8Array {
  if (s === undefined) throw new Error('JWK export lacks a field');
  return new Uint8Array(Buffer.from(s, 'base64url'));
}

function benchKey(pair: GeneratedKeyPair): BenchKey {
  const jwk = pair.keyObject.export({ format: 'jwk' });
  const publicRaw = jwk.kty === 'EC' ? new Uint8Array([0x04, ...b64url(jwk.x), ...b64url(jwk.y)]) : b64url(jwk.x);
  const spki = new Uint8Array(Buffer.from(pair.publicKeyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
  return { privateKeyPem: pair.privateKeyPem, privateRaw: b64url(jwk.d), publicRaw, spki };
}

export function makeInputs(keyType: BenchKeyType, now = new Date()): BenchInputs {
  const caPair = generateKeyPair(NODE_KEY_TYPE[keyType]);
  const caPem = createCertificate({
    template: {
      subject: { commonName: `plat bench ${KEY_TYPE_LABEL[keyType]} CA`, organizations: ['plat'] },
      notBefore: new Date(now.getTime() - 3600_000),
      notAfter: new Date(now.getTime() + 365 * 86_400_000),
      isCA: true,
      keyUsage: ['digital signature', 'cert sign', 'crl sign'],
    },
    publicKey: caPair.keyObject,
    signer: caPair.keyObject,
  }).certificatePem;
  const caCert = parseCertificate(caPem);
  if (caCert.subjectKeyId === undefined) throw new Error('bench CA certificate has no subjectKeyIdentifier');

  // A kubelet-like client CSR: the shape most requests to a signer have.
  const leafPair = generateKeyPair(NODE_KEY_TYPE[keyType]);
  const csrPem = createCsr({
    subject: { commonName: 'system:node:bench-worker-1', organizations: ['system:nodes'] },
    dnsNames: ['bench-worker-1', 'bench-worker-1.cluster.local'],
    ipAddresses: ['10.0.0.17', 'fd00::17'],
    privateKey: leafPair.keyObject,
  });
  const csr = parseCsrTypescript(csrPem);
  const [info, , sig] = derChildren(csr.der);
  const [, subject] = derChildren(csr.der, info!.start);
  const san = csr.extensions.find((e) => e.oid === '2.5.29.17');
  if (san === undefined) throw new Error('bench CSR has no subjectAltName');

  const policy = {
    usages: ['digital signature', 'key encipherment', 'client auth'],
    notBefore: new Date(now.getTime() - 5 * 60_000),
    notAfter: new Date(now.getTime() + 24 * 3600_000),
  };
  const leafPem = createCertificate({
    template: {
      subject: {},
      subjectDer: csr.der.slice(subject!.start, subject!.end),
      notBefore: policy.notBefore,
      notAfter: policy.notAfter,
      keyUsage: ['digital signature'],
      extKeyUsage: ['client auth'],
    },
    publicKey: csr.publicKey.spki,
    issuer: { certificatePem: caPem, privateKey: caPair.keyObject },
    signer: caPair.keyObject,
  }).certificatePem;

  return {
    keyType,
    ca: { ...benchKey(caPair), certificatePem: caPem, certificateDer: caCert.der, subjectNameDer: caCert.rawSubject, subjectKeyId: caCert.subjectKeyId },
    csr: {
      pem: csrPem,
      der: csr.der,
      info: csr.der.slice(info!.start, info!.end),
      // The BIT STRING's contents after the unused-bits octet (always 0 here).
      signature: csr.der.slice(sig!.body + 1, sig!.end),
      subjectNameDer: csr.der.slice(subject!.start, subject!.end),
      subjectAltNameDer: san.value.slice(),
      key: benchKey(leafPair),
    },
    chainPem: leafPem + caPem,
    message: new Uint8Array(randomBytes(32)),
    policy,
  };
}
