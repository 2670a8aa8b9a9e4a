// Runs one registered controller against a real plat, as the controller manager will: the plugin
// taps `controllers` on its own host, the factory gets a ControllerContext (admin client, shared
// informers started after the controller is built), and every log line (at -v=4) is kept.
import { setMaxListeners } from 'node:events';
import { RestClient } from '../../core/client/rest-client.js';
import { SharedInformers } from '../../core/controller/shared-informers.js';
import { Flags } from '../../core/flags/flag-set.js';
import { Host } from '../../core/host.js';
import { MapRegistry, type ControllerContext, type Runnable } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { adminConnection } from '../controller/support.js';
import type { RunningPlat } from '../helpers/plat.js';

export interface Harness<R extends Runnable> {
  readonly runnable: R;
  readonly client: RestClient;
  /** The controller's shared informers (to wait until their cache has seen a change). */
  readonly informers: SharedInformers;
  readonly lines: string[];
  /** True once a log line contains every fragment. */
  logged(...fragments: string[]): boolean;
  stop(): Promise<void>;
}

/** `enabledByDefault`: what the registration must say (upstream's tokencleaner, say, is off). */
export function runController<R extends Runnable = Runnable>(plat: RunningPlat, plugin: Plugin, name: string, o: { enabledByDefault?: boolean } = {}): Harness<R> {
  const lines: string[] = [];
  const logger = createLogger({ verbosity: 4, write: (l) => lines.push(l) });
  const client = new RestClient(adminConnection(plat));
  const informers = new SharedInformers(client);
  const host = new Host({ role: 'controller-manager', logger });
  plugin.apply(host, undefined);
  const registry = new MapRegistry<(ctx: ControllerContext) => Runnable>();
  host.hooks.controllers.call(registry);
  const enabledByDefault = o.enabledByDefault ?? true;
  if (!registry.names().includes(name) || registry.enabledByDefault(name) !== enabledByDefault) {
    throw new Error(`${name} is not registered as ${enabledByDefault ? 'enabled' : 'disabled'} by default`);
  }
  const runnable = registry.get(name)!({ client, informers, logger, flags: new Flags(), hooks: host.hooks }) as R;
  const stop = new AbortController();
  // As run-controllers.ts's: every running informer and in-flight request listens to the stop
  // (the garbage collector alone has an informer per resource).
  setMaxListeners(0, stop.signal);
  informers.start(stop.signal);
  // A factory may build nothing (a controller with nothing to do here): then nothing runs.
  const running = runnable ? runnable.run(stop.signal) : Promise.resolve();
  return {
    runnable, client, informers, lines,
    logged: (...fragments) => lines.some((l) => fragments.every((f) => l.includes(f))),
    stop: async () => { stop.abort(); await running; await informers.stopped(); client.close(); },
  };
}
