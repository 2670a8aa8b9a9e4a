// NodeLifecycleController: registers upstream's `node-lifecycle-controller` (alias `nodelifecycle`,
// on by default) with the controller manager, and defines its flags (--node-monitor-period,
// --node-monitor-grace-period, --node-startup-grace-period, --node-eviction-rate,
// --secondary-node-eviction-rate, --large-cluster-size-threshold, --unhealthy-zone-threshold).
// Upstream's client and service account for it is `node-controller` (role
// system:controller:node-controller). `nodeLifecycleControllerPlugin({ now, monitorGraceMs, ... })`
// makes one with other clocks or values that win over the flags (tests); the plugin itself is upstream's.
import type { FlagSet, FlagSpec } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { nodeLifecycleController, type NodeLifecycleOptions } from './controller.js';

const PLUGIN_NAME = 'NodeLifecycleController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'node-lifecycle-controller';
const CONTROLLER_ALIASES = ['nodelifecycle'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const NODE_CONTROLLER_CLIENT = 'node-controller';

const SECTION = 'Nodes, storage, autoscaling and others';
// Go's ParseFloat reads NaN; a rate or threshold of NaN means nothing, and compares false with everything.
const nonNegative = (v: unknown): string | undefined => (typeof v !== 'number' || Number.isNaN(v) ? 'must be a number' : v >= 0 ? undefined : 'must not be negative');
// Upstream takes any value; a period of 0 or less would run the health pass in a busy loop.
const positive = (v: unknown): string | undefined => (typeof v === 'number' && v > 0 ? undefined : 'must be greater than 0');

/** As the spec's catalogue has them (host/flag-catalogue/controller-manager.ts), with their checks. */
const FLAGS: readonly (FlagSpec & { readonly default: number })[] = [
  { name: 'node-eviction-rate', type: 'float32', default: 0.1, section: SECTION, validate: nonNegative,
    help: 'Nodes per second whose pods are deleted on failure when the zone is healthy.' },
  { name: 'secondary-node-eviction-rate', type: 'float32', default: 0.01, section: SECTION, validate: nonNegative,
    help: 'Same when the zone is unhealthy; implicitly 0 when cluster size is at or below the large-cluster threshold.' },
  { name: 'large-cluster-size-threshold', type: 'int', typeName: 'int32', default: 50, section: SECTION, validate: nonNegative,
    help: 'Node count from which the cluster counts as large (per zone if several zones).' },
  { name: 'unhealthy-zone-threshold', type: 'float32', default: 0.55, section: SECTION, validate: nonNegative,
    help: 'Fraction of not-ready nodes (minimum 3) making a zone unhealthy.' },
  { name: 'node-monitor-grace-period', type: 'duration', default: 50_000, section: SECTION, validate: positive,
    help: "Unresponsiveness tolerated for a running node; must be N times the node agent's status update frequency and larger than the sum of the two HTTP/2 ping and read-idle timeout variables." },
  { name: 'node-monitor-period', type: 'duration', default: 5_000, section: SECTION, validate: positive, help: 'NodeStatus sync period.' },
  { name: 'node-startup-grace-period', type: 'duration', default: 60_000, section: SECTION, validate: positive,
    help: 'Tolerated unresponsiveness of a starting node.' },
];

const flagOr = (flags: FlagSet, name: string): number => (flags.has(name) ? flags.get<number>(name) : FLAGS.find((f) => f.name === name)!.default);

export function nodeLifecycleControllerPlugin(overrides: Partial<NodeLifecycleOptions> = {}): Plugin {
  const now = () => new Date();
  const monotonicNow = () => performance.now();
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => { for (const f of FLAGS) flags.define(f); });
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => nodeLifecycleController(ctx, CONTROLLER_NAME, {
        monitorPeriodMs: flagOr(ctx.flags, 'node-monitor-period'),
        monitorGraceMs: flagOr(ctx.flags, 'node-monitor-grace-period'),
        startupGraceMs: flagOr(ctx.flags, 'node-startup-grace-period'),
        evictionQps: flagOr(ctx.flags, 'node-eviction-rate'),
        secondaryEvictionQps: flagOr(ctx.flags, 'secondary-node-eviction-rate'),
        largeClusterThreshold: flagOr(ctx.flags, 'large-cluster-size-threshold'),
        unhealthyThreshold: flagOr(ctx.flags, 'unhealthy-zone-threshold'),
        now, monotonicNow, ...overrides,
      }), { enabledByDefault: true, clientName: NODE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const NodeLifecycleController: Plugin = nodeLifecycleControllerPlugin();

export { nodeLifecycleController, type NodeLifecycleOptions } from './controller.js';
export { computeZoneState, zoneKey, Zones, type ZoneState } from './zones.js';
export { RateLimitedTimedQueue } from './rate-limited-timed-queue.js';
