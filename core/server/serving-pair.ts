// A serving certificate and its key, read from files and checked as Go's tls.LoadX509KeyPair does:
// --tls-cert-file/--tls-private-key-file of the API server and the controller manager, each
// --tls-sni-cert-key, the node agent's tlsCertFile/tlsPrivateKeyFile. OpenSSL is not enough: it
// files a key under its own algorithm, so a key of another algorithm than the certificate's is
// taken without a word and every handshake then fails, with nothing logged; one of the same
// algorithm is refused, but as "key values mismatch" from the listener, naming no file.
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { x509KeyPairProblem, type PairProblem } from '../crypto/x509-key-pair.js';
import { osErrorText } from '../go-os-error.js';
import { StartupError } from '../plugin.js';

export interface CertKeyPem { readonly cert: string; readonly key: string }

/** tls.X509KeyPair's checks and texts, then whether TLS takes the pair. */
export function servingPairProblem(pair: CertKeyPem): PairProblem | undefined {
  const problem = x509KeyPairProblem(pair.cert, pair.key);
  if (problem) return problem;
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
