// CoordinationPlugin: serves coordination.platform/v1 Leases (controller-manager leader election,
// node-agent heartbeats).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { leaseResource } from './lease.js';

const PLUGIN_NAME = 'CoordinationPlugin';

export const CoordinationPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => registry.register(leaseResource));
  },
};

export { leaseResource, type Lease, type LeaseSpec } from './lease.js';
