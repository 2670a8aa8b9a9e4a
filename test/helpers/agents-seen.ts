// The User-Agents a real plat API server receives: a plugin whose first authenticator only notes
// each request's method, path and agent (and authenticates no one), for the tests of the
// components' agents (controller manager, node agent).
import type { AuthenticationRequest } from '../../core/authn/user.js';
import type { Plugin } from '../../core/plugin.js';

export interface Seen { readonly method: string; readonly path: string; readonly agent: string }

/** Notes every request `keep` accepts (the agent given is the header's, when it is one string). */
export function agentsSeen(keep: (req: AuthenticationRequest, agent: string) => boolean): { plugin: Plugin; seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    plugin: {
      name: 'AgentsForTests',
      apply(host) {
        host.hooks.authenticate.tap({ name: 'AgentsForTests', stage: -Infinity }, (req) => {
          const agent = req.headers['user-agent'];
          if (typeof agent === 'string' && keep(req, agent)) seen.push({ method: req.method, path: req.path, agent });
          return undefined;
        });
      },
    },
  };
}
