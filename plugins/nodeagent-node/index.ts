// NodeAgentNodePlugin: the node agent's `node` subsystem (hooks.nodeAgent): the node's addresses
// (ctx.addresses), its registration as a core/v1 Node, its status reports and its heartbeat Lease
// in plat-node-lease. See README.md.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { nodeSubsystem } from './subsystem.js';

const PLUGIN_NAME = 'NodeAgentNodePlugin';
export const NODE_SUBSYSTEM = 'node';

export const NodeAgentNodePlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.nodeAgent.tap(PLUGIN_NAME, (registry) => {
      registry.register(NODE_SUBSYSTEM, (ctx) => nodeSubsystem(ctx, { version: host.version, gitVersion: host.gitVersion }));
    });
  },
};

export { nodeSubsystem, type NodeSubsystem, type NodeSubsystemOptions } from './subsystem.js';
export type { Clock } from './clock.js';
export type { HostNetwork, DefaultRoute } from './host-network.js';
export type { MachineInfo, MachineInfoSource } from './machine.js';
export type { PressureSignals } from './node-status.js';
