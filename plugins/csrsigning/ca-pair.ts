// Reading a signing CA from its certificate and key files the way upstream does: first its loader's
// checks (ca-loader.ts: both files read, neither empty, tls.X509KeyPair), then its CA provider's
// parsing (cert.ParseCertsPEM, keyutil.ParsePrivateKeyPEM): exactly one CERTIFICATE block, an RSA,
// ECDSA (P-256/384/521) or Ed25519 key in the first PEM block that holds one, and the key must
// belong to the certificate. The provider's errors name its loader, `csr-controller::<cert>::<key>`,
// as upstream's caProvider.setCA does.
//
// A certificate that cannot sign certificates is used, as upstream uses it, but the pair carries a
// warning for the operator: what it issues verifies nowhere (Go's CheckSignatureFrom refuses such
// an issuer), and the usual mistake behind it is a serving certificate given for the CA.
import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { goQuote } from '../../core/go-quote.js';
import { decodePemBlocks, encodePem, parseCertificateDer, samePublicKey, type ParsedCertificate } from '../../core/crypto/index.js';
import type { PoolCa } from '../../core/signing-pool/pool.js';
import { caLoaderName, checkCaFiles, readCaFilesSync } from './ca-loader.js';

export interface SigningCa {
  readonly certFile: string;
  readonly keyFile: string;
  /** The files' bytes, to tell a changed file from an unchanged one. */
  readonly certBytes: Buffer;
  readonly keyBytes: Buffer;
  readonly certificate: ParsedCertificate;
  /** What the signing pool's workers get. */
  readonly poolCa: PoolCa;
  /** Why the certificate cannot sign certificates, when it cannot (the pair is used all the same). */
  readonly warning?: string;
}

const KEY_BLOCKS: Readonly<Record<string, 'sec1' | 'pkcs1' | 'pkcs8'>> = {
  'EC PRIVATE KEY': 'sec1',
  'RSA PRIVATE KEY': 'pkcs1',
  'PRIVATE KEY': 'pkcs8',
};
const BASIC_CONSTRAINTS = '2.5.29.19';
// The curves plat signs with (README: P-256/384/521). Upstream also loads and signs with a P-224
// CA key; plat refuses it here, after tls.X509KeyPair took it.
const CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

function parseCertificates(loader: string, bytes: Buffer): ParsedCertificate {
  const fail = (detail: string) => new Error(`error reading CA cert file ${goQuote(loader)}: ${detail}`);
  const certs: ParsedCertificate[] = [];
  for (const block of decodePemBlocks(bytes)) {
    if (block.label !== 'CERTIFICATE' || Object.keys(block.headers).length > 0) continue;
    try {
      certs.push(parseCertificateDer(block.der));
    } catch (e) {
      throw fail((e as Error).message);
    }
  }
  if (certs.length === 0) throw fail('data does not contain any valid RSA or ECDSA certificates');
  if (certs.length !== 1) throw fail(`expected 1 certificate, found ${certs.length}`);
  return certs[0]!;
}

// keyutil.ParsePrivateKeyPEM. Reached only once tls.X509KeyPair took the key file, so an encrypted
// key never gets here (tls fails to parse it).
function parsePrivateKey(loader: string, bytes: Buffer): KeyObject {
  const fail = (detail: string) => new Error(`error reading CA key file ${goQuote(loader)}: ${detail}`);
  for (const block of decodePemBlocks(bytes)) {
    const type = KEY_BLOCKS[block.label];
    if (!type) continue; // EC PARAMETERS and the like, as keyutil tolerates
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: Buffer.from(block.der), format: 'der', type });
    } catch {
      continue;
    }
    const kind = key.asymmetricKeyType;
    if (kind === 'rsa' || kind === 'ed25519' || (kind === 'ec' && CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? ''))) return key;
    if (kind === 'x25519' || kind === 'x448') throw fail('key did not implement crypto.Signer');
  }
  throw fail('data does not contain a valid RSA or ECDSA private key');
}

/**
 * Why `cert` cannot issue certificates, in crypto/x509's words for an issuer: a version 3
 * certificate needs basic constraints with CA:TRUE, and a key usage, when present, cert sign.
 * Version 1 certificates (no extensions) pass, as Go and OpenSSL let them.
 */
function notACa(cert: ParsedCertificate): string | undefined {
  const hasBasicConstraints = cert.extensions.some((e) => e.oid === BASIC_CONSTRAINTS);
  if (hasBasicConstraints && !cert.isCA) return 'not a CA certificate (basic constraints CA:FALSE)';
  if (!hasBasicConstraints && cert.version === 3) return 'not a CA certificate (no basic constraints)';
  if (cert.keyUsage.length > 0 && !cert.keyUsage.includes('cert sign')) return 'the CA certificate\'s key usage does not include cert sign';
  return undefined;
}

/**
 * A CA from the files' bytes; throws a CaLoaderError for what upstream's loader refuses, else an
 * Error naming the file and the problem.
 */
export function parseSigningCa(certFile: string, certBytes: Buffer, keyFile: string, keyBytes: Buffer): SigningCa {
  checkCaFiles(certFile, certBytes, keyFile, keyBytes);
  const loader = caLoaderName(certFile, keyFile);
  const certificate = parseCertificates(loader, certBytes);
  const key = parsePrivateKey(loader, keyBytes);
  // X509KeyPair matched the first blocks; ParseCertsPEM skips blocks with headers, and keyutil
  // reads a key block by its type only, so the pair used may still be other blocks.
  if (!samePublicKey(key, certificate.publicKey.spki)) {
    throw new Error(`error reading CA cert file ${goQuote(loader)}: tls: private key does not match public key`);
  }
  const problem = notACa(certificate);
  const id = createHash('sha256').update(certBytes).update('\0').update(keyBytes).digest('hex').slice(0, 32);
  return {
    certFile, keyFile, certBytes, keyBytes, certificate,
    poolCa: { id, certificatePem: encodePem('CERTIFICATE', certificate.der), privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString() },
    ...(problem ? { warning: `CA cert file "${certFile}": ${problem}: certificates it signs will not verify` } : {}),
  };
}

/** Reads and parses both files. */
export function loadSigningCa(certFile: string, keyFile: string): SigningCa {
  const { certBytes, keyBytes } = readCaFilesSync(certFile, keyFile);
  return parseSigningCa(certFile, certBytes, keyFile, keyBytes);
}
