// NodeAgentStaticPods: registers the node agent's `static-pods` subsystem (hooks.nodeAgent).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { createStaticPodsSubsystem, type StaticPodsOptions } from './subsystem.js';

const PLUGIN_NAME = 'NodeAgentStaticPods';

export const NodeAgentStaticPods: Plugin<StaticPodsOptions> = {
  name: PLUGIN_NAME,
  apply(host: Host, options): void {
    host.hooks.nodeAgent.tap(PLUGIN_NAME, (registry) => {
      registry.register('static-pods', (ctx) => createStaticPodsSubsystem(ctx, options ?? {}));
    });
  },
};

export { createStaticPodsSubsystem, type StaticPodsOptions } from './subsystem.js';
export { CONFIG_HASH_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION } from './pod-defaults.js';
