// X509Authenticator: --client-ca-file. A request that presents a client certificate chaining to
// the bundle is the user named by the certificate's CommonName, in the groups named by its O
// values (upstream's CommonNameUserConversion). The TLS server asks for certificates but does not
// reject unverified ones (requestCert, rejectUnauthorized:false), so the chain is verified here,
// and a bad one rejects the request (401) rather than falling through to anonymous. The file is
// watched (upstream's "client-ca-bundle" content): a changed, usable bundle verifies from the next
// request on, so a CA taken out of the file stops authenticating without a restart.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { AuthenticationRequest, UserInfo } from '../../core/authn/user.js';
import type { Logger } from '../../core/log.js';
import { authenticateCertificateChain, parseCaBundle, readCaBundle, type Certificate } from '../../core/authn/x509/index.js';
import { watchCaFile, type DynamicOptions } from '../../core/tls/dynamic-content.js';
import type { WatchedFiles } from '../../core/tls/watched-files.js';

const PLUGIN_NAME = 'X509Authenticator';

export const CLIENT_CA_FILE_FLAG = 'client-ca-file';

export interface X509AuthenticatorOptions extends DynamicOptions {
  /** Clock for validity checks; tests inject one. */
  readonly now?: () => Date;
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
      let roots: WatchedFiles<readonly Certificate[]> | undefined;
      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const path = cfg.flags.get<string>(CLIENT_CA_FILE_FLAG);
        if (!path) return;
        const bundle = roots = watchCaFile<readonly Certificate[]>('client-ca-bundle', path, () => readCaBundle(path), (b) => parseCaBundle(b.toString('latin1'), ''), log, options);
        log.info('client certificate authentication enabled', { file: path, authorities: bundle.current().length });
        host.hooks.authenticate.tap(PLUGIN_NAME, (req) => authenticate(req, bundle.current(), now(), log));
        host.hooks.clientAuthorities.tap(PLUGIN_NAME, (authorities) => authorities.add(bundle));
      });
      host.hooks.start.tap(PLUGIN_NAME, () => roots?.start());
      host.hooks.shutdown.tap(PLUGIN_NAME, () => roots?.stop());
    },
  };
}

export const X509Authenticator: Plugin = createX509Authenticator();

function authenticate(req: AuthenticationRequest, roots: readonly Certificate[], now: Date, log: Logger): UserInfo | undefined {
  const outcome = authenticateCertificateChain(req.peerChain, roots, now, true);
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
