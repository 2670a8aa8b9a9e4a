// The authorities the API server names in its TLS handshake as acceptable issuers of client
// certificates: Go's tls.Config.ClientCAs, which upstream fills with the union of --client-ca-file
// and --requestheader-client-ca-file. A client holding several certificates picks one by them,
// and `openssl s_client` lists them. Authenticators that verify client certificates add their
// bundles (hooks.clientAuthorities); each still verifies against its own.
import { X509Certificate } from 'node:crypto';
import type { Changing } from '../tls/changing.js';

/** A CA certificate; plat's own parsed Certificate is one, and so is `{ x509: new X509Certificate(pem) }`. */
export interface ClientAuthority { readonly x509: X509Certificate }

export interface ClientAuthorities {
  /**
   * A bundle as its file currently holds it: a reload changes the names offered. A plugin with a
   * bundle that never changes passes `fixed([...])` (exported by plat).
   */
  add(bundle: Changing<readonly ClientAuthority[]>): void;
}

/**
 * The bundles as one PEM text, for node:tls's `ca`; empty when they hold no certificate. A CA in
 * several bundles is named once, where it first appears: x509.CertPool.AddCert drops a
 * certificate it already holds, and OpenSSL would list it in CertificateRequest again.
 */
export function authoritiesPem(bundles: readonly Changing<readonly ClientAuthority[]>[]): string {
  return uniqueCertificatesPem(bundles.flatMap((b) => b.current().map((c) => c.x509.toString())));
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificates of PEM texts, each once (by DER) where it first appears. */
export function uniqueCertificatesPem(pems: readonly string[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const block of pems.flatMap((p) => p.match(PEM_CERTIFICATE) ?? [])) {
    const cert = new X509Certificate(block);
    const der = cert.raw.toString('base64');
    if (seen.has(der)) continue;
    seen.add(der);
    out.push(cert.toString());
  }
  return out.join('');
}
