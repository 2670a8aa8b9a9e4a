// client-go's transport.TLSConfigFor on a kubeconfig's CA bundle and client pair, at load: upstream
// builds the transport before the first request, so a CA or pair that cannot be used fails the
// client's construction in these words; Node would only fail each handshake, in OpenSSL's.
import { decodeFirstPemBlock } from '../crypto/pem.js';
import { parseCertificateDer } from '../crypto/certificate.js';
import { checkX509KeyPair } from '../crypto/x509-key-pair.js';

/** x509.CertPool.AppendCertsFromPEM's verdict: a CERTIFICATE block without headers that parses. */
function appendsAny(pem: Uint8Array): boolean {
  for (let d = decodeFirstPemBlock(pem); d; d = decodeFirstPemBlock(d.rest)) {
    if (d.block.label !== 'CERTIFICATE' || Object.keys(d.block.headers).length > 0) continue;
    try {
      parseCertificateDer(d.block.der);
      return true;
    } catch {
      // skipped, as AppendCertsFromPEM skips it
    }
  }
  return false;
}

/** createErrorParsingCAData: why no certificate was taken, found by walking the blocks again. */
function caDataError(pem: Uint8Array): string {
  let rest = pem;
  while (rest.length > 0) {
    const d = decodeFirstPemBlock(rest);
    if (!d) return 'unable to parse bytes as PEM block';
    rest = d.rest;
    if (d.block.label !== 'CERTIFICATE' || Object.keys(d.block.headers).length > 0) continue;
    try {
      parseCertificateDer(d.block.der);
    } catch (e) {
      return `failed to parse certificate: ${(e as Error).message}`;
    }
  }
  return 'no valid certificate authority data seen';
}

/** rootCertPool's error for a non-empty CA bundle, or undefined when it holds a certificate. */
export function rootCertificatesError(ca: Uint8Array): string | undefined {
  if (ca.length === 0 || appendsAny(ca)) return undefined;
  return `unable to load root certificates: ${caDataError(ca)}`;
}

/** tls.X509KeyPair's error for the client pair, or undefined when it is one. */
export function clientPairError(cert: Uint8Array, key: Uint8Array): string | undefined {
  try {
    checkX509KeyPair(cert, key);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
