// TokenFileAuthenticator: --token-auth-file. A request whose Authorization header carries a bearer
// token listed in the file is that file's user. A bearer token not in the file rejects the
// request, but that is not final: other token authenticators (bootstrap, service account, OIDC,
// webhook) tap the same bail hook, and whichever of them returns a user first wins, before or
// after this rejection. The rejection only decides when nobody accepts the token, and then it
// keeps the request from falling through to anonymous (401 "invalid bearer token", as upstream).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { requestToken } from '../../core/authn/bearer.js';
import { tokenAuthenticationEnabled } from '../../core/authn/token-authentication.js';
import { authenticateAudienceAgnostic } from '../../core/authn/api-audiences.js';
import { loadTokenFile } from './token-table.js';

const PLUGIN_NAME = 'TokenFileAuthenticator';

export const TOKEN_AUTH_FILE_FLAG = 'token-auth-file';

export const TokenFileAuthenticator: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    const log = host.logger.child(PLUGIN_NAME);
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      flags.define({
        name: TOKEN_AUTH_FILE_FLAG,
        type: 'string',
        help: 'Static token file securing the secure port.',
        section: 'Authentication options',
        owner: PLUGIN_NAME,
      });
    });
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const path = cfg.flags.get<string>(TOKEN_AUTH_FILE_FLAG);
      if (!path) return;
      const table = loadTokenFile(path, log);
      // Counts only: token values never reach the log.
      log.info('static token authentication enabled', { file: path, tokens: table.size });
      host.hooks.authenticate.tapPromise(PLUGIN_NAME, (req) => {
        const token = requestToken(req);
        if (token === undefined) return Promise.resolve(undefined);
        // Audience-agnostic, as upstream wraps this authenticator (WrapAudienceAgnosticToken).
        return authenticateAudienceAgnostic(host, req, () => {
          // An unknown token is no error of tokenfile's: the bearer token authenticator says
          // `invalid bearer token` once no token authenticator accepted it.
          return table.lookup(token);
        });
      });
      tokenAuthenticationEnabled(host);
    });
  },
};
