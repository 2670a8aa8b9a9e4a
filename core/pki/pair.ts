// What the ensure* helpers share: the CertKeyPair shape, reading an existing pair from disk, and the
// checks that decide whether it can be reused.
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import {
  createCertificate,
  decodePemBlocks,
  formatIp,
  generateKeyPair,
  parseCertificateDer,
  parseIp,
  samePublicKey,
  toPrivateKey,
  type CertificateTemplate,
  type ParsedCertificate,
} from '../crypto/index.js';
import { writeFilesAtomic } from './write-file-atomic.js';
import { makeDir } from '../make-dir.js';

export interface CertKeyPair {
  /** PEM; for a serving pair possibly followed by the chain. */
  certificatePem: string;
  /** PKCS#8 PEM. */
  privateKeyPem: string;
  certFile: string;
  keyFile: string;
}

export class PkiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PkiError';
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const CERT_MODE = 0o644;
export const KEY_MODE = 0o600;

export interface LoadedPair {
  pair: CertKeyPair;
  /** All certificates of the cert file, leaf first. */
  chain: ParsedCertificate[];
  leaf: ParsedCertificate;
}

/** The file's text, or undefined when it does not exist; any other error is thrown. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export function pairFiles(dir: string, baseName: string): { certFile: string; keyFile: string } {
  if (typeof baseName !== 'string' || baseName === '' || baseName.includes('/') || baseName.includes(path.sep)) {
    throw new TypeError(`invalid baseName: ${JSON.stringify(baseName)}`);
  }
  return { certFile: path.join(dir, `${baseName}.crt`), keyFile: path.join(dir, `${baseName}.key`) };
}

/**
 * Reads a pair. 'missing' when the certificate file is absent (a key without its certificate is an
 * interrupted first run); a string reason when present but unusable.
 */
export async function loadPair(certFile: string, keyFile: string): Promise<LoadedPair | 'missing' | { invalid: string }> {
  const certificatePem = await readIfExists(certFile);
  if (certificatePem === undefined) return 'missing';
  const privateKeyPem = await readIfExists(keyFile);
  if (privateKeyPem === undefined) return { invalid: `${keyFile} does not exist` };
  try {
    const blocks = decodePemBlocks(certificatePem).filter((b) => b.label === 'CERTIFICATE');
    if (blocks.length === 0) return { invalid: `${certFile} holds no CERTIFICATE block` };
    const chain = blocks.map((b) => parseCertificateDer(b.der));
    const leaf = chain[0]!;
    if (!samePublicKey(toPrivateKey(privateKeyPem), leaf.publicKey.spki)) {
      return { invalid: `${keyFile} does not match the certificate in ${certFile}` };
    }
    return { pair: { certificatePem, privateKeyPem, certFile, keyFile }, chain, leaf };
  } catch (e) {
    return { invalid: `${certFile}: ${(e as Error).message}` };
  }
}

/** Valid now and for at least one more day (a certificate about to expire is replaced rather than reused). */
export function fresh(cert: ParsedCertificate, now: Date): boolean {
  return cert.notBefore.getTime() <= now.getTime() && cert.notAfter.getTime() - now.getTime() > DAY_MS;
}

/** True when `cert` was signed by the key of `issuer`. */
export function issuedBy(cert: ParsedCertificate, issuer: ParsedCertificate): boolean {
  try {
    const x = new X509Certificate(Buffer.from(cert.der));
    const ca = new X509Certificate(Buffer.from(issuer.der));
    return x.checkIssued(ca) && x.verify(ca.publicKey);
  } catch {
    return false;
  }
}

/** Splits mixed hosts into DNS names and IPs (normalised), de-duplicated, order kept. */
export function splitHosts(hosts: readonly string[]): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  for (const h of hosts) {
    if (typeof h !== 'string' || h === '') continue;
    const ip = parseIp(h);
    if (ip !== undefined) {
      const text = formatIp(ip);
      if (!ipAddresses.includes(text)) ipAddresses.push(text);
    } else if (!dnsNames.some((d) => d.toLowerCase() === h.toLowerCase())) {
      dnsNames.push(h);
    }
  }
  return { dnsNames, ipAddresses };
}

/** True when every requested DNS name and IP is among the certificate's SANs. */
export function coversHosts(cert: ParsedCertificate, hosts: { dnsNames: string[]; ipAddresses: string[] }): boolean {
  const dns = new Set(cert.dnsNames.map((d) => d.toLowerCase()));
  const ips = new Set(cert.ipAddresses);
  return hosts.dnsNames.every((d) => dns.has(d.toLowerCase())) && hosts.ipAddresses.every((i) => ips.has(i));
}

/** Writes a key and its certificate, both or neither (no key is left without its certificate). */
export function writePair(files: { certFile: string; keyFile: string }, certificatePem: string, privateKeyPem: string): Promise<void> {
  return writeFilesAtomic([{ file: files.keyFile, data: privateKeyPem, mode: KEY_MODE }, { file: files.certFile, data: certificatePem, mode: CERT_MODE }]);
}

/** Generates a key, issues a certificate for it and writes both or neither (key 0600, cert 0644). */
export async function issueAndWrite(
  files: { certFile: string; keyFile: string },
  template: CertificateTemplate,
  issuer: CertKeyPair | undefined,
  chainPem = '',
): Promise<CertKeyPair> {
  await makeDir(path.dirname(files.certFile), 0o700);
  const key = generateKeyPair('ecdsa-p256');
  const { certificatePem } = createCertificate({
    template,
    publicKey: key.keyObject,
    ...(issuer === undefined ? {} : { issuer: { certificatePem: issuer.certificatePem, privateKey: issuer.privateKeyPem } }),
    signer: issuer === undefined ? key.keyObject : issuer.privateKeyPem,
  });
  const pem = certificatePem + chainPem;
  await writePair(files, pem, key.privateKeyPem);
  return { certificatePem: pem, privateKeyPem: key.privateKeyPem, ...files };
}
