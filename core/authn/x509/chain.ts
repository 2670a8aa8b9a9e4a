// A presented client certificate chain (DER, leaf first) verified against trust anchors and mapped
// to a user as upstream's x509 authenticator with CommonNameUserConversion does. Shared by the API
// server's client-certificate and request-header authenticators and by the delegating
// authenticator of the controller manager and node agent.
import type { UserInfo } from '../user.js';
import { CertificateParseError, type Certificate } from './certificate.js';
import { clientCertificates } from './certificate-cache.js';
import { handshakeError } from './handshake.js';
import { verifyClientCertificate } from './verify.js';
import { verifiedChains, type Verdict, type VerifiedChains } from './verified-chains.js';

/** Upstream's authentication.kubernetes.io/credential-id, in plat's group. */
export const CREDENTIAL_ID_KEY = 'authentication.platform/credential-id';

export type CertificateAuthentication =
  | { readonly result: 'none' }
  | { readonly result: 'user'; readonly user: UserInfo }
  | { readonly result: 'reject'; readonly reason: string };

/** `SN=<decimal>, SKID=<AA:BB…>, AKID=<…>`: upstream's certificateIdentifier. */
export function certificateIdentifier(c: Certificate): string {
  const hex = (b: Buffer): string => (b.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
  return `SN=${c.serial}, SKID=${hex(c.subjectKeyId)}, AKID=${hex(c.authorityKeyId)}`;
}

/**
 * Verifies a presented chain (DER, leaf first) against trust anchors and maps it to a user.
 * 'none': no certificate, or a valid one without CommonName (upstream then lets other
 * authenticators, anonymous included, decide); 'reject': a certificate that does not verify.
 * `nameCertificate`: the reason names the leaf, as upstream's x509 Authenticator wraps its
 * verification error (`verifying certificate SN=…, SKID=…, AKID=… failed: …`); the request-header
 * authenticator's Verifier returns the error bare. `verified`: where verdicts are remembered
 * (null: nowhere, to compare with).
 */
export function authenticateCertificateChain(
  peerChain: readonly Buffer[],
  roots: readonly Certificate[],
  now: Date,
  nameCertificate = false,
  verified: VerifiedChains | null = verifiedChains,
): CertificateAuthentication {
  const leafDer = peerChain[0];
  if (!leafDer) return { result: 'none' };
  const known = verified?.lookup(peerChain, roots, now.getTime());
  if (known) return answer(known, nameCertificate);
  let leaf: Certificate;
  let intermediates: Certificate[];
  try {
    leaf = clientCertificates.parse(leafDer);
    // Go's TLS stack parses every presented certificate before verification; so do we.
    intermediates = peerChain.slice(1).map((der) => clientCertificates.parse(der));
  } catch (err) {
    if (err instanceof CertificateParseError) return { result: 'reject', reason: err.message };
    throw err;
  }
  // Go's handshake would have failed: no authenticator there gets to word it.
  const refused = handshakeError(leaf);
  if (refused !== undefined) return { result: 'reject', reason: refused };
  const outcome = verifyClientCertificate(leaf, intermediates, roots, now);
  const verdict: Verdict = { roots, chain: [leaf, ...intermediates], from: outcome.from, until: outcome.until, error: outcome.ok ? undefined : outcome.error };
  if (verified && (outcome.ok || !outcome.namesTime)) verified.remember(peerChain, verdict);
  return answer(verdict, nameCertificate);
}

/** The answer for a verdict, CommonNameUserConversion on success. Fresh objects: callers may extend them. */
function answer(verdict: Verdict, nameCertificate: boolean): CertificateAuthentication {
  const leaf = verdict.chain[0]!;
  if (verdict.error !== undefined) {
    return { result: 'reject', reason: nameCertificate ? `verifying certificate ${certificateIdentifier(leaf)} failed: ${verdict.error}` : verdict.error };
  }
  if (leaf.commonName === '') return { result: 'none' };
  return {
    result: 'user',
    user: {
      name: leaf.commonName,
      groups: [...leaf.organizations],
      extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${leaf.sha256}`] },
    },
  };
}

