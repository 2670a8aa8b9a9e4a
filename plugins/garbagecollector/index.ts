// GarbageCollectorController: registers upstream's `garbage-collector-controller` (alias
// `garbagecollector`, on by default) with the controller manager, with its flags
// --concurrent-gc-syncs (20 workers for each of its two queues) and --enable-garbage-collector
// (true; false leaves the controller out, as upstream's startGarbageCollectorController). Under
// `plat all` the API server's flag of that name is the same flag: one setting for both sides.
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { garbageCollectorController, type GarbageCollectorOptions } from './controller.js';

const PLUGIN_NAME = 'GarbageCollectorController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'garbage-collector-controller';
const CONTROLLER_ALIASES = ['garbagecollector'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const GARBAGE_COLLECTOR_CLIENT = 'generic-garbage-collector';

const CONCURRENCY_FLAG = 'concurrent-gc-syncs';
const ENABLE_FLAG = 'enable-garbage-collector';
const CONCURRENCY_DEFAULT = 20;

function defineFlags(flags: FlagSet): void {
  // As the spec's catalogue has them (host/flag-catalogue/controller-manager.ts).
  flags.define({
    name: CONCURRENCY_FLAG, type: 'int', typeName: 'int32', default: CONCURRENCY_DEFAULT, section: 'Concurrency',
    help: 'Number of objects synced concurrently.',
    validate: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative'),
  });
  // `plat all`: the API server plugin, loaded first, has defined it.
  if (!flags.has(ENABLE_FLAG)) {
    flags.define({ name: ENABLE_FLAG, type: 'bool', default: true, section: 'Nodes, storage, autoscaling and others', help: 'Must match the API server.' });
  }
}

const flagOr = <T>(flags: FlagSet, name: string, fallback: T): T => (flags.has(name) ? flags.get<T>(name) : fallback);

/** `garbageCollectorPlugin({ syncPeriodMs })` builds it with another discovery period (tests); the plugin itself is upstream's. */
export function garbageCollectorPlugin(options: Pick<GarbageCollectorOptions, 'syncPeriodMs'> = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.flags.tap(PLUGIN_NAME, defineFlags);
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => {
        if (!flagOr(ctx.flags, ENABLE_FLAG, true)) return undefined;
        return garbageCollectorController(ctx, { ...options, workers: flagOr(ctx.flags, CONCURRENCY_FLAG, CONCURRENCY_DEFAULT) });
      }, { enabledByDefault: true, clientName: GARBAGE_COLLECTOR_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const GarbageCollectorController: Plugin = garbageCollectorPlugin();
