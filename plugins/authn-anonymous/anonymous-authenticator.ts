// AnonymousAuthenticator: --anonymous-auth (default true). The last authenticator (stage 1000):
// a request that no other authenticator claimed becomes system:anonymous, unless one of them
// rejected a credential it recognised. Checking `rejected` is what keeps a bad token or an
// untrusted client certificate at 401 instead of quietly downgrading it to anonymous.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP } from '../../core/authn/user.js';
import type { UserInfo } from '../../core/authn/user.js';

const PLUGIN_NAME = 'AnonymousAuthenticator';

export const ANONYMOUS_AUTH_FLAG = 'anonymous-auth';
/** After every other authenticator. */
export const ANONYMOUS_STAGE = 1000;

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
      if (!cfg.flags.get<boolean>(ANONYMOUS_AUTH_FLAG)) return;
      host.logger.child(PLUGIN_NAME).v(1).info('anonymous requests enabled');
      host.hooks.authenticate.tap({ name: PLUGIN_NAME, stage: ANONYMOUS_STAGE }, (req): UserInfo | undefined =>
        req.rejected ? undefined : { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] });
    });
  },
};
