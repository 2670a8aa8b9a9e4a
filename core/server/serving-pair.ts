// A serving certificate and its key, read from files and checked as Go's tls.LoadX509KeyPair does:
// --tls-cert-file/--tls-private-key-file of the API server and the controller manager, each
// --tls-sni-cert-key, the node agent's tlsCertFile/tlsPrivateKeyFile. OpenSSL is not enough: it
// files a key under its own algorithm, so a key of another algorithm than the certificate's is
// taken without a word and every handshake then fails, with nothing logged; one of the same
// algorithm is refused, but as "key values mismatch" from the listener, naming no file.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { decodePemBlocks, encodePem } from '../crypto/index.js';
import { osErrorText } from '../go-os-error.js';
import { StartupError } from '../plugin.js';

export interface CertKeyPem { readonly cert: string; readonly key: string }

/** What a pair cannot serve for, and whose fault: the certificate's, the key's, or the two together. */
export interface PairProblem { readonly fault: 'cert' | 'key' | 'pair'; readonly reason: string }

const isKeyLabel = (label: string) => label === 'PRIVATE KEY' || label.endsWith(' PRIVATE KEY');

/** tls.X509KeyPair's checks and texts (without its "tls: " prefix), then whether TLS takes the pair. */
export function servingPairProblem(pair: CertKeyPem): PairProblem | undefined {
  const certBlocks = decodePemBlocks(pair.cert);
  const leafBlock = certBlocks.find((b) => b.label === 'CERTIFICATE');
  if (!leafBlock) {
    return {
      fault: 'cert',
      reason: certBlocks.some((b) => isKeyLabel(b.label))
        ? 'failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched'
        : 'failed to find any PEM data in certificate input',
    };
  }
  const keyBlocks = decodePemBlocks(pair.key);
  const keyBlock = keyBlocks.find((b) => isKeyLabel(b.label));
  if (!keyBlock) {
    return {
      fault: 'key',
      reason: keyBlocks.some((b) => b.label === 'CERTIFICATE')
        ? 'found a certificate rather than a key in the PEM for the private key'
        : 'failed to find any PEM data in key input',
    };
  }
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(Buffer.from(leafBlock.der));
  } catch (e) {
    return { fault: 'cert', reason: `failed to parse certificate: ${(e as Error).message}` };
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(encodePem(keyBlock.label, keyBlock.der));
  } catch (e) {
    return { fault: 'key', reason: `failed to parse private key: ${(e as Error).message}` };
  }
  if (!leaf.checkPrivateKey(key)) return { fault: 'pair', reason: 'private key does not match public key' };
  try {
    createSecureContext({ cert: pair.cert, key: pair.key });
  } catch (e) {
    return { fault: 'pair', reason: (e as Error).message };
  }
  return undefined;
}

/** A file and the flag (or configuration field) that named it, for messages. */
export interface NamedFile { readonly name: string; readonly path: string }

/** Go's os.ReadFile of the certificate, then of the key; its error is Go's, which names the file. */
export function readPairFiles(certFile: string, keyFile: string): CertKeyPem {
  const read = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new StartupError(osErrorText('open', file, e));
    }
  };
  return { cert: read(certFile), key: read(keyFile) };
}

/**
 * Reads and checks a pair; a StartupError (exit 1) names the file at fault, or both. A file that
 * cannot be read is Go's os error alone, as NewDynamicServingContentFromFiles returns it and
 * kube-apiserver and kube-controller-manager print it.
 */
export function loadServingPair(cert: NamedFile, key: NamedFile): CertKeyPem {
  const pair = readPairFiles(cert.path, key.path);
  const problem = servingPairProblem(pair);
  if (problem) {
    const who = problem.fault === 'cert' ? `${cert.name} ${cert.path}` : problem.fault === 'key' ? `${key.name} ${key.path}`
      : `${cert.name} ${cert.path} and ${key.name} ${key.path}`;
    throw new StartupError(`${who}: ${problem.reason}`);
  }
  return pair;
}
