// What Go's TLS server refuses in a client's Certificate and CertificateVerify messages before any
// authenticator runs (crypto/tls processCertsFromClient and the CertificateVerify check), and
// OpenSSL lets through. plat cannot fail the handshake for these, so the certificate is refused
// as a credential instead. The one that matters: an RSA leaf key with e = 1 makes the client's
// proof of possession a padded digest anyone can write, so whoever holds the certificate (public
// by nature) would be its subject.
import { DerReader } from '../../crypto/der.js';
import { readSubjectPublicKeyInfo } from '../../crypto/public-key.js';
import { rsaPublicKeyError } from '../../crypto/rsa-public-key-check.js';
import type { Certificate } from './certificate.js';

/** crypto/tls's default maximum RSA key size of a peer (GODEBUG tlsmaxrsasize). */
const MAX_RSA_BITS = 8192;

/** Go's %T of the key Go parses for an algorithm crypto/tls refuses as a client's. */
const GO_KEY_TYPES: Readonly<Record<string, string>> = {
  '1.2.840.10040.4.1': '*dsa.PublicKey',
  '1.3.101.110': '*ecdh.PublicKey',
};

/**
 * Go's handshake error for a client's leaf certificate, or undefined. Go applies the size limit to
 * every certificate the client sends; the chain plat sees also holds issuers node:tls added from
 * the server's own CA store, so only the leaf is held to it here.
 */
export function handshakeError(leaf: Certificate): string | undefined {
  const key = leaf.publicKey;
  switch (key.algorithm) {
    case 'rsa': {
      const bits = key.bits ?? 0;
      if (bits > MAX_RSA_BITS) return `tls: client sent certificate containing RSA key larger than ${MAX_RSA_BITS} bits`;
      // The CertificateVerify signature is checked by rsa.VerifyPSS (PKCS1v15 before TLS 1.3).
      const error = rsaPublicKeyError(key.spki, bits);
      return error === undefined ? undefined : `tls: invalid signature by the client certificate: ${error}`;
    }
    case 'ec': case 'ed25519':
      return undefined;
    default: {
      const oid = readSubjectPublicKeyInfo(new DerReader(key.spki)).algorithm.oid;
      const type = key.algorithm === 'ml-dsa' ? '*mldsa.PublicKey' : GO_KEY_TYPES[oid] ?? '<nil>';
      return `tls: client certificate contains an unsupported public key of type ${type}`;
    }
  }
}
