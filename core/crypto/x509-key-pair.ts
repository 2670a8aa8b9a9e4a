// Go 1.23's crypto/tls.X509KeyPair, which upstream's CA loader (dynamiccertificates) runs on the CA
// files before anything else looks at them, and client-go's TLSConfigFor on a kubeconfig's client
// certificate and key: for files that are not a certificate and its key, its texts are what
// kube-controller-manager and kubectl say. It checks only the first CERTIFICATE block and the
// first block whose type ends in "PRIVATE KEY", whatever else the files hold. Serving pairs
// (core/server/serving-pair.ts) are checked by it too, with whose fault a problem is.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { decodePemBlocks, type PemBlock } from './pem.js';
import { parseCertificateDer } from './certificate.js';

// Go's crypto/x509 parses EC private keys on these curves only.
const GO_CURVES = new Set(['secp224r1', 'prime256v1', 'secp384r1', 'secp521r1']);

function tryKey(der: Uint8Array, type: 'pkcs1' | 'pkcs8' | 'sec1'): KeyObject | undefined {
  try {
    return createPrivateKey({ key: Buffer.from(der), format: 'der', type });
  } catch {
    return undefined;
  }
}

const isGoEc = (k: KeyObject) => k.asymmetricKeyType === 'ec' && GO_CURVES.has(k.asymmetricKeyDetails?.namedCurve ?? '');

/** tls.parsePrivateKey: PKCS#1, then PKCS#8, then SEC1, whatever the block's type says. */
function parsePrivateKey(der: Uint8Array): KeyObject {
  const pkcs1 = tryKey(der, 'pkcs1');
  if (pkcs1?.asymmetricKeyType === 'rsa') return pkcs1;
  const pkcs8 = tryKey(der, 'pkcs8');
  if (pkcs8 && (pkcs8.asymmetricKeyType === 'rsa' || pkcs8.asymmetricKeyType === 'ed25519' || isGoEc(pkcs8))) return pkcs8;
  // x509.ParsePKCS8PrivateKey takes X25519 keys (as crypto/ecdh keys), which TLS cannot use.
  if (pkcs8?.asymmetricKeyType === 'x25519') throw new Error('tls: found unknown private key type in PKCS#8 wrapping');
  const sec1 = tryKey(der, 'sec1');
  if (sec1 && isGoEc(sec1)) return sec1;
  throw new Error('tls: failed to parse private key');
}

const MATCHED_TYPES = new Set(['rsa', 'ec', 'ed25519']);

/**
 * Go compares the RSA modulus, the EC point and the Ed25519 key. The public halves are compared as
 * SubjectPublicKeyInfo DER, each re-exported by OpenSSL so that encodings agree: JWK would do, but
 * Node has no JWK for P-224, a curve Go accepts here.
 */
function checkMatch(spki: Uint8Array, certAlgorithm: string, key: KeyObject): void {
  if (!MATCHED_TYPES.has(certAlgorithm)) throw new Error('tls: unknown public key algorithm');
  if (key.asymmetricKeyType !== certAlgorithm) throw new Error('tls: private key type does not match public key type');
  const pub = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }).export({ format: 'der', type: 'spki' });
  const own = createPublicKey(key).export({ format: 'der', type: 'spki' });
  if (!pub.equals(own)) throw new Error('tls: private key does not match public key');
}

const goList = (types: readonly string[]) => `[${types.join(' ')}]`;

/** The first CERTIFICATE block's DER; throws tls's text when there is none. */
function firstCertificate(blocks: readonly PemBlock[]): Uint8Array {
  const cert = blocks.find((b) => b.label === 'CERTIFICATE');
  if (cert) return cert.der;
  if (blocks.length === 0) throw new Error('tls: failed to find any PEM data in certificate input');
  if (blocks.length === 1 && blocks[0]!.label.endsWith('PRIVATE KEY')) {
    throw new Error('tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched');
  }
  throw new Error(`tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(blocks.map((b) => b.label))}`);
}

/** The first block whose type is PRIVATE KEY or ends in " PRIVATE KEY"; throws tls's text when there is none. */
function firstKey(blocks: readonly PemBlock[]): Uint8Array {
  const at = blocks.findIndex((b) => b.label === 'PRIVATE KEY' || b.label.endsWith(' PRIVATE KEY'));
  if (at >= 0) return blocks[at]!.der;
  if (blocks.length === 0) throw new Error('tls: failed to find any PEM data in key input');
  if (blocks.length === 1 && blocks[0]!.label === 'CERTIFICATE') throw new Error('tls: found a certificate rather than a key in the PEM for the private key');
  throw new Error(`tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(blocks.map((b) => b.label))}`);
}

/** What keeps two PEM inputs from being a pair, whose fault (the certificate's, the key's, both), and tls's text. */
export interface PairProblem { readonly fault: 'cert' | 'key' | 'pair'; readonly reason: string }

/** A certificate and its private key as tls.X509KeyPair takes them: the first certificate's DER and the key. */
export interface X509KeyPair { readonly certDer: Uint8Array; readonly key: KeyObject }

/** tls.X509KeyPair's error: its text, and whose fault it is. */
export class X509KeyPairError extends Error {
  constructor(readonly fault: PairProblem['fault'], message: string) { super(message); }
}

/** tls.X509KeyPair: the pair; throws X509KeyPairError. */
export function x509KeyPair(certPem: Uint8Array | string, keyPem: Uint8Array | string): X509KeyPair {
  // Whose fault a failure of the step about to run is.
  let fault: PairProblem['fault'] = 'cert';
  try {
    const certDer = firstCertificate(decodePemBlocks(certPem));
    fault = 'key';
    const keyDer = firstKey(decodePemBlocks(keyPem));
    fault = 'cert';
    const cert = parseCertificateDer(certDer);
    fault = 'key';
    const key = parsePrivateKey(keyDer);
    fault = MATCHED_TYPES.has(cert.publicKey.algorithm) ? 'pair' : 'cert';
    checkMatch(cert.publicKey.spki, cert.publicKey.algorithm, key);
    return { certDer, key };
  } catch (e) {
    throw new X509KeyPairError(fault, e instanceof Error ? e.message : String(e));
  }
}

/** tls.X509KeyPair's problem with the PEM inputs, undefined when they are a certificate and its private key. */
export function x509KeyPairProblem(certPem: Uint8Array | string, keyPem: Uint8Array | string): PairProblem | undefined {
  try {
    x509KeyPair(certPem, keyPem);
    return undefined;
  } catch (e) {
    if (e instanceof X509KeyPairError) return { fault: e.fault, reason: e.message };
    throw e;
  }
}

/** Throws an Error with tls.X509KeyPair's text when the PEM inputs are not a certificate and its private key. */
export function checkX509KeyPair(certPem: Uint8Array, keyPem: Uint8Array): void {
  const problem = x509KeyPairProblem(certPem, keyPem);
  if (problem) throw new Error(problem.reason);
}
