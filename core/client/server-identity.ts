// A server certificate's names checked as Go's clients check them (crypto/tls through
// x509.Certificate.VerifyHostname): an IP address against the IP SANs, a name against the DNS
// SANs, and never the subject's Common Name (Go 1.15 dropped that fallback). Node's own
// tls.checkServerIdentity still falls back to the Common Name when a certificate has no DNS SAN, so
// without this a plat client would trust a certificate kubectl and client-go refuse.
import tls, { type PeerCertificate } from 'node:tls';

export function checkServerIdentity(host: string, cert: PeerCertificate): Error | undefined {
  const { CN: _commonName, ...subject } = cert.subject ?? {};
  const err = tls.checkServerIdentity(host, { ...cert, subject } as unknown as PeerCertificate);
  // The refused certificate as it was, for the error's wording (tls-verify-error.ts).
  return err && Object.assign(err, { cert });
}
