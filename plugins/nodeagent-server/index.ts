// NodeAgentServer: registers the node agent's `server` subsystem (hooks.nodeAgent).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { createServerSubsystem, type ServerSubsystemOptions } from './subsystem.js';

const PLUGIN_NAME = 'NodeAgentServer';

export const NodeAgentServer: Plugin<ServerSubsystemOptions> = {
  name: PLUGIN_NAME,
  apply(host: Host, options): void {
    host.hooks.nodeAgent.tap(PLUGIN_NAME, (registry) => {
      registry.register('server', (ctx) => createServerSubsystem(ctx, options ?? {}));
    });
  },
};

export { createServerSubsystem, type ServerSubsystemOptions } from './subsystem.js';
