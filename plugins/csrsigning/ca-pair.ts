// Reading a signing CA from its certificate and key files the way upstream's CA provider does
// (cert.ParseCertsPEM, keyutil.ParsePrivateKeyPEM, tls.X509KeyPair): exactly one CERTIFICATE
// block, an RSA, ECDSA (P-256/384/521) or Ed25519 key in the first PEM block that holds one, and
// the key must belong to the certificate. Errors name the file and say what is wrong.
//
// A certificate that cannot sign certificates is used, as upstream uses it, but the pair carries a
// warning for the operator: what it issues verifies nowhere (Go's CheckSignatureFrom refuses such
// an issuer), and the usual mistake behind it is a serving certificate given for the CA.
import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
import { decodePemBlocks, encodePem, parseCertificateDer, samePublicKey, type ParsedCertificate } from '../../core/crypto/index.js';
import type { PoolCa } from '../../core/signing-pool/pool.js';

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
// Go's crypto/x509 parses EC keys on these curves only.
const CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

/**
 * Go's text for the usual file-system errors (`open /x: no such file or directory`). A directory
 * opens fine under Go's os.ReadFile and fails on the read: `read /x: is a directory`.
 */
function readError(file: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const text: Record<string, readonly [op: string, reason: string]> = {
    ENOENT: ['open', 'no such file or directory'], EACCES: ['open', 'permission denied'], EISDIR: ['read', 'is a directory'],
  };
  const known = code ? text[code] : undefined;
  return known ? `${known[0]} ${file}: ${known[1]}` : (e as Error).message;
}

function readFile(file: string, kind: 'cert' | 'key'): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`error reading CA ${kind} file "${file}": ${readError(file, e)}`);
  }
}

/** Both files' bytes, or an Error naming the one that cannot be read. */
export async function readSigningCaFiles(certFile: string, keyFile: string): Promise<{ certBytes: Buffer; keyBytes: Buffer }> {
  const read = async (file: string, kind: 'cert' | 'key') => {
    try {
      return await readFileAsync(file);
    } catch (e) {
      throw new Error(`error reading CA ${kind} file "${file}": ${readError(file, e)}`);
    }
  };
  const [certBytes, keyBytes] = await Promise.all([read(certFile, 'cert'), read(keyFile, 'key')]);
  return { certBytes, keyBytes };
}

function parseCertificates(certFile: string, bytes: Buffer): ParsedCertificate {
  const fail = (detail: string) => new Error(`error reading CA cert file "${certFile}": ${detail}`);
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

/** PKCS#8's encrypted form, or OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` header on a PKCS#1 or SEC1 block. */
const isEncrypted = (b: { label: string; headers: Record<string, string> }) =>
  b.label === 'ENCRYPTED PRIVATE KEY' || (b.label in KEY_BLOCKS && /ENCRYPTED/i.test(b.headers['Proc-Type'] ?? ''));

function parsePrivateKey(keyFile: string, bytes: Buffer): KeyObject {
  let encrypted = false;
  for (const block of decodePemBlocks(bytes)) {
    encrypted ||= isEncrypted(block);
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
    if (kind === 'x25519' || kind === 'x448') throw new Error(`error reading CA key file "${keyFile}": key did not implement crypto.Signer`);
  }
  // Go says "tls: failed to parse private key" here; there is no passphrase flag to point to.
  if (encrypted) throw new Error(`error reading CA key file "${keyFile}": the private key is encrypted; the key file must hold it unencrypted`);
  throw new Error(`error reading CA key file "${keyFile}": data does not contain a valid RSA or ECDSA private key`);
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

/** A CA from the files' bytes; throws an Error naming the file and the problem. */
export function parseSigningCa(certFile: string, certBytes: Buffer, keyFile: string, keyBytes: Buffer): SigningCa {
  const certificate = parseCertificates(certFile, certBytes);
  const key = parsePrivateKey(keyFile, keyBytes);
  if (!samePublicKey(key, certificate.publicKey.spki)) {
    throw new Error(`error reading CA cert file "${certFile}": tls: private key does not match public key`);
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
  return parseSigningCa(certFile, readFile(certFile, 'cert'), keyFile, readFile(keyFile, 'key'));
}
