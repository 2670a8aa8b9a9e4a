// The authorities the API server names in its TLS handshake as acceptable issuers of client
// certificates: Go's tls.Config.ClientCAs, which upstream fills with the union of --client-ca-file
// and --requestheader-client-ca-file. A client holding several certificates picks one by them,
// and `openssl s_client` lists them. Authenticators that verify client certificates add their
// bundles (hooks.clientAuthorities); each still verifies against its own.
import type { X509Certificate } from 'node:crypto';
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

/** The bundles as one PEM text, for node:tls's `ca`; empty when they hold no certificate. */
export function authoritiesPem(bundles: readonly Changing<readonly ClientAuthority[]>[]): string {
  return bundles.flatMap((b) => b.current().map((c) => c.x509.toString())).join('');
}
