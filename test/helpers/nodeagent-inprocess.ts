// `plat nodeagent` booted in the test's process (the real role and subsystems), for tests that need
// a seam a child process cannot offer: an identity plugin with a fixed rotation jitter, the context.
import { boot } from '../../core/boot.js';
import type { Host } from '../../core/host.js';
import { silentLogger, type Logger } from '../../core/log.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import type { Plugin } from '../../core/plugin.js';
import { profiles } from '../../host/profiles.js';
import { getNodeAgentContext } from '../../plugins/nodeagent/index.js';
import { PLUGIN_NAME as IDENTITY } from '../../plugins/nodeagent-identity/index.js';

export interface InProcessAgent { readonly host: Host; readonly ctx: NodeAgentContext; stop(): Promise<void> }

/** Boots the nodeagent profile with `argv`; `identity` replaces the default identity plugin. */
export async function startAgentInProcess(argv: string[], o: { cwd: string; identity?: Plugin; logger?: Logger }): Promise<InProcessAgent> {
  const base = profiles['nodeagent']!;
  const plugins = o.identity ? base.plugins.map((p) => (p.name === IDENTITY ? o.identity! : p)) : base.plugins;
  const { host } = await boot({
    profile: { ...base, plugins }, argv, cwd: o.cwd, logger: o.logger ?? silentLogger, version: '0.0.0-test',
  });
  return { host, ctx: getNodeAgentContext(host)!, stop: () => host.hooks.shutdown.promise() };
}
