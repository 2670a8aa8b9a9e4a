// X509Authenticator: --client-ca-file. A request that presents a client certificate chaining to
// the bundle is the user named by the certificate's CommonName, in the groups named by its O
// values (upstream's CommonNameUserConversion). The TLS server asks for certificates but does not
// reject unverified ones (requestCert, rejectUnauthorized:false), so the chain is verified here,
// and a bad one rejects the request (401) rather than falling through to anonymous.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { AuthenticationRequest, UserInfo } from '../../core/authn/user.js';
import type { Logger } from '../../core/log.js';
import { CertificateParseError } from './certificate.js';
import type { Certificate } from './certificate.js';
import { clientCertificates } from './certificate-cache.js';
import { readCaBundle } from './ca-bundle.js';
import { verifyClientCertificate } from './verify.js';

const PLUGIN_NAME = 'X509Authenticator';

export const CLIENT_CA_FILE_FLAG = 'client-ca-file';
/** Upstream's authentication.kubernetes.io/credential-id, in plat's group. */
export const CREDENTIAL_ID_KEY = 'authentication.platform/credential-id';

export interface X509AuthenticatorOptions {
  /** Clock for validity checks; tests inject one. */
  readonly now?: () => Date;
}

export type CertificateAuthentication =
  | { readonly result: 'none' }
  | { readonly result: 'user'; readonly user: UserInfo }
  | { readonly result: 'reject'; readonly reason: string };

/**
 * Verifies a presented chain (DER, leaf first) against trust anchors and maps it to a user.
 * 'none': no certificate, or a valid one without CommonName (upstream then lets other
 * authenticators, anonymous included, decide); 'reject': a certificate that does not verify.
 */
export function authenticateCertificateChain(
  peerChain: readonly Buffer[],
  roots: readonly Certificate[],
  now: Date,
): CertificateAuthentication {
  const [leafDer, ...rest] = peerChain;
  if (!leafDer) return { result: 'none' };
  let leaf: Certificate;
  let intermediates: Certificate[];
  try {
    leaf = clientCertificates.parse(leafDer);
    // Go's TLS stack parses every presented certificate before verification; so do we.
    intermediates = rest.map((der) => clientCertificates.parse(der));
  } catch (err) {
    if (err instanceof CertificateParseError) return { result: 'reject', reason: err.message };
    throw err;
  }
  const verified = verifyClientCertificate(leaf, intermediates, roots, now);
  if (!verified.ok) return { result: 'reject', reason: verified.error };
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

/** The plugin with an injected clock (tests); `X509Authenticator` uses the wall clock. */
export function createX509Authenticator(options: X509AuthenticatorOptions = {}): Plugin {
  const now = options.now ?? (() => new Date());
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      const log = host.logger.child(PLUGIN_NAME);
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
        flags.define({
          name: CLIENT_CA_FILE_FLAG,
          type: 'string',
          help: "Client certificates signed by these authorities authenticate as the certificate's CommonName.",
          section: 'Authentication options',
          owner: PLUGIN_NAME,
        });
      });
      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const path = cfg.flags.get<string>(CLIENT_CA_FILE_FLAG);
        if (!path) return;
        const roots = readCaBundle(path);
        log.info('client certificate authentication enabled', { file: path, authorities: roots.length });
        host.hooks.authenticate.tap(PLUGIN_NAME, (req) => authenticate(req, roots, now(), log));
      });
    },
  };
}

export const X509Authenticator: Plugin = createX509Authenticator();

function authenticate(req: AuthenticationRequest, roots: readonly Certificate[], now: Date, log: Logger): UserInfo | undefined {
  const outcome = authenticateCertificateChain(req.peerChain, roots, now);
  switch (outcome.result) {
    case 'user':
      return outcome.user;
    case 'reject':
      log.v(4).info('client certificate rejected', { reason: outcome.reason });
      req.reject(outcome.reason);
      return undefined;
    case 'none':
      return undefined;
  }
}
