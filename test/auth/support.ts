// Boots a real Host with real Flags for the auth plugin tests, and builds AuthenticationRequests
// the way the server core does (reject() records, `rejected` reports).
import type { AuthenticationRequest } from '../../core/authn/user.js';
import { Flags } from '../../core/flags/flag-set.js';
import { Host } from '../../core/host.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';

export interface Booted {
  readonly host: Host;
  readonly flags: Flags;
  /** Every log line written (at verbosity 10). */
  readonly logs: string[];
}

/** Applies `plugins`, declares and parses flags from `argv`, then runs `configure`. */
export function boot(plugins: readonly Plugin[], argv: readonly string[] = []): Booted {
  const logs: string[] = [];
  const logger = createLogger({ verbosity: 10, write: (line) => logs.push(line) });
  const host = new Host({ role: 'apiserver', logger });
  for (const p of plugins) p.apply(host, undefined);
  const flags = new Flags();
  host.hooks.flags.call(flags);
  flags.parse(argv);
  host.hooks.configure.call({ role: 'apiserver', flags, pluginOptions: new Map() });
  return { host, flags, logs };
}

export interface TestRequest extends AuthenticationRequest {
  readonly reasons: string[];
}

export function request(init: { headers?: Record<string, string | string[] | undefined>; peerChain?: readonly Buffer[] } = {}): TestRequest {
  const reasons: string[] = [];
  return {
    method: 'GET',
    path: '/apis/certificates.platform/v1/certificatesigningrequests',
    headers: init.headers ?? {},
    peerCertificate: undefined,
    peerChain: init.peerChain ?? [],
    reasons,
    reject(reason: string) { reasons.push(reason); },
    get rejected() { return reasons.length > 0; },
  };
}

/** A plugin declaring --authorization-mode as the apiserver plugin does, for authorizer tests. */
export const AuthorizationModeFlag: Plugin = {
  name: 'AuthorizationModeFlagForTests',
  apply(host) {
    host.hooks.flags.tap('AuthorizationModeFlagForTests', (flags) => flags.define({
      name: 'authorization-mode', type: 'strings', default: ['AlwaysAllow'], section: 'Authorization options', help: 'test',
    }));
  },
};
