// NamespaceController: registers upstream's `namespace-controller` (alias `namespace`, on by
// default) with the controller manager, with its flags --concurrent-namespace-syncs (10) and
// --namespace-sync-period (5m0s). `namespaceControllerPlugin({ deletionGracePeriodMs, now })`
// makes one with another grace period or clock (tests); the plugin itself is upstream's.
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { namespaceController, type NamespaceControllerOptions } from './controller.js';

const PLUGIN_NAME = 'NamespaceController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'namespace-controller';
const CONTROLLER_ALIASES = ['namespace'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const NAMESPACE_CONTROLLER_CLIENT = 'namespace-controller';
/** namespaceDeletionGracePeriod. */
export const DELETION_GRACE_PERIOD_MS = 5_000;

const CONCURRENCY_FLAG = 'concurrent-namespace-syncs';
const SYNC_PERIOD_FLAG = 'namespace-sync-period';
const CONCURRENCY_DEFAULT = 10;
const SYNC_PERIOD_DEFAULT_MS = 5 * 60_000;

function defineFlags(flags: FlagSet): void {
  // As the spec's catalogue has them (host/flag-catalogue/controller-manager.ts).
  flags.define({
    name: CONCURRENCY_FLAG, type: 'int', typeName: 'int32', default: CONCURRENCY_DEFAULT, section: 'Concurrency',
    help: 'Number of objects synced concurrently.',
    validate: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative'),
  });
  flags.define({ name: SYNC_PERIOD_FLAG, type: 'duration', default: SYNC_PERIOD_DEFAULT_MS, section: 'Nodes, storage, autoscaling and others', help: 'Namespace lifecycle sync.' });
}

const flagOr = <T>(flags: FlagSet, name: string, fallback: T): T => (flags.has(name) ? flags.get<T>(name) : fallback);

export function namespaceControllerPlugin(options: Partial<Pick<NamespaceControllerOptions, 'deletionGracePeriodMs' | 'now'>> = {}): Plugin {
  const deletionGracePeriodMs = options.deletionGracePeriodMs ?? DELETION_GRACE_PERIOD_MS;
  if (!(deletionGracePeriodMs >= 0)) throw new RangeError(`${PLUGIN_NAME}: deletionGracePeriodMs must not be negative (got ${deletionGracePeriodMs})`);
  const now = options.now ?? (() => new Date());
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.flags.tap(PLUGIN_NAME, defineFlags);
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => namespaceController(ctx, CONTROLLER_NAME, {
        deletionGracePeriodMs, now,
        workers: flagOr(ctx.flags, CONCURRENCY_FLAG, CONCURRENCY_DEFAULT),
        resyncMs: flagOr(ctx.flags, SYNC_PERIOD_FLAG, SYNC_PERIOD_DEFAULT_MS),
      }), { enabledByDefault: true, clientName: NAMESPACE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const NamespaceController: Plugin = namespaceControllerPlugin();

export { NamespacedResourcesDeleter, ResourcesRemainingError, FINALIZER_ESTIMATE_SECONDS } from './deleter.js';
export { NamespaceConditionUpdater } from './conditions.js';
