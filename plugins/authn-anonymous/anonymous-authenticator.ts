// AnonymousAuthenticator: --anonymous-auth (default true), or the `anonymous` section of the
// --authentication-config file, which then governs instead (enabled; conditions: anonymous only
// on those exact paths). The last authenticator (stage 1000): a request that no other
// authenticator claimed becomes system:anonymous, unless one of them rejected a credential it
// recognised. Checking `rejected` is what keeps a bad token or an untrusted client certificate at
// 401 instead of quietly downgrading it to anonymous. As upstream's ApplyAuthorization, the flag's
// anonymous access is switched off, with a warning, when --authorization-mode has AlwaysAllow: with
// nothing checked after authentication, anyone could do anything.
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { StartupError } from '../../core/plugin.js';
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP } from '../../core/authn/user.js';
import type { UserInfo } from '../../core/authn/user.js';
import { authorizerChain, isChainFromFile } from '../../core/authz/chain.js';
import {
  ANONYMOUS_AUTH_FLAG, AUTHENTICATION_CONFIG_FLAG, AuthenticationConfigError, acceptingCompiler, explicitlySet,
  invalidConfigurationMessage, loadAuthenticationConfiguration, loadFailure, validateAuthenticationConfiguration,
  type AnonymousAuthConfig,
} from '../../core/authn/authentication-config/index.js';

const PLUGIN_NAME = 'AnonymousAuthenticator';
const ALWAYS_ALLOW = 'AlwaysAllow';

export { ANONYMOUS_AUTH_FLAG };
/** After every other authenticator. */
export const ANONYMOUS_STAGE = 1000;
export const FILE_AND_FLAG_EXCLUSIVE = 'authentication-config file and anonymous-auth flag are mutually exclusive';

/** The `anonymous` section of --authentication-config, when the flag is declared, set and the file has one. */
function anonymousFromFile(flags: FlagSet): AnonymousAuthConfig | undefined {
  if (!flags.has(AUTHENTICATION_CONFIG_FLAG)) return undefined;
  const file = flags.get<string | undefined>(AUTHENTICATION_CONFIG_FLAG);
  if (!file) return undefined;
  let config;
  try {
    config = loadAuthenticationConfiguration(file);
  } catch (err) {
    if (err instanceof AuthenticationConfigError) throw new StartupError(loadFailure(file, err));
    throw err;
  }
  if (!config.anonymous) return undefined;
  // The structure only: the JWT part (and its CEL) is the JWT authenticator's to check.
  const errs = validateAuthenticationConfiguration(acceptingCompiler, { jwt: [], hasJwt: false, anonymous: config.anonymous });
  if (errs.length) throw new StartupError(invalidConfigurationMessage(errs, file));
  return config.anonymous;
}

export const AnonymousAuthenticator: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      flags.define({
        name: ANONYMOUS_AUTH_FLAG,
        type: 'bool',
        default: true,
        help: 'Requests not rejected by another method are anonymous: username system:anonymous, group system:unauthenticated.',
        section: 'Authentication options',
        owner: PLUGIN_NAME,
      });
    });
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const log = host.logger.child(PLUGIN_NAME);
      const fromFile = anonymousFromFile(cfg.flags);
      if (fromFile && explicitlySet(cfg.flags, ANONYMOUS_AUTH_FLAG)) throw new StartupError(FILE_AND_FLAG_EXCLUSIVE);
      const enabled = fromFile ? fromFile.enabled : cfg.flags.get<boolean>(ANONYMOUS_AUTH_FLAG);
      if (!enabled) return;
      // Upstream looks at the --authorization-mode list only: neither the file's anonymous section
      // nor an --authorization-config chain is touched.
      const modes = isChainFromFile(host) ? [] : authorizerChain(host, cfg.flags).map((e) => e.type);
      if (!fromFile && modes.includes(ALWAYS_ALLOW)) {
        log.warn('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
        return;
      }
      const paths = new Set((fromFile?.conditions ?? []).map((c) => c.path));
      log.v(1).info('anonymous requests enabled', paths.size ? { paths: [...paths] } : {});
      host.hooks.authenticate.tap({ name: PLUGIN_NAME, stage: ANONYMOUS_STAGE }, (req): UserInfo | undefined => {
        if (req.rejected) return undefined;
        // Upstream matches the request path exactly.
        if (paths.size > 0 && !paths.has(req.path)) return undefined;
        return { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };
      });
    });
  },
};
