// NodeAgentIdentity: the `identity` subsystem of `plat nodeagent` — the node's client certificate
// (TLS bootstrap, rotation; sets ctx.api) and the secure server's pair (given files, self-signed,
// or issued through serverTLSBootstrap; sets ctx.servingPair). Standalone agents only get the
// serving pair, after which the subsystem returns with its reason: nothing is left to keep.
import type { Host } from '../../core/host.js';
import { requestExit } from '../../core/lifecycle.js';
import type { Plugin } from '../../core/plugin.js';
import { runClientIdentity } from './client-identity.js';
import { runServingIdentity } from './serving-identity.js';

export const PLUGIN_NAME = 'NodeAgentIdentity';

export interface IdentityPluginOptions {
  /** Test seams: the clock, the rotation jitter, the template check and watchdog periods. */
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly templateCheckMs?: number;
  readonly watchdogIntervalMs?: number;
  readonly watchdogLimitMs?: number;
}

export function identityPlugin(o: IdentityPluginOptions = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.nodeAgent.tap(PLUGIN_NAME, (registry) => {
        registry.register('identity', (ctx) => ({
          async run(signal: AbortSignal): Promise<string | void> {
            if (ctx.standalone) {
              await runServingIdentity(ctx, o, signal);
              // Stopped while watching tlsCertFile: it was not done early.
              if (signal.aborted) return;
              if (!ctx.config.enableServer) return 'no client identity: running standalone (no --platconfig); no serving pair: the server is off';
              return ctx.servingPair.get()
                ? 'no client identity: running standalone (no --platconfig); the serving pair is set'
                : 'no client identity: running standalone (no --platconfig); no serving certificate: serverTLSBootstrap has no API server to ask for one';
            }
            const client = runClientIdentity(ctx, {
              version: host.version,
              gitVersion: host.gitVersion,
              exit: (reason) => requestExit(host, { code: 1, reason }),
              ...o,
            }, signal);
            await Promise.all([client, runServingIdentity(ctx, o, signal)]);
          },
        }));
      });
    },
  };
}

export const NodeAgentIdentity: Plugin = identityPlugin();
