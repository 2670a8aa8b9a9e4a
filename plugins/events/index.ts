// EventsPlugin: serves core/v1 Events (resource.ts) and the same records as events.platform/v1
// (v1-resource.ts) and keeps them for --event-ttl after their last
// write (ttl-sweeper.ts), as kube-apiserver's event registry does with its etcd leases.
import type { FlagSpec } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { servedStore } from '../../core/registry/stores.js';
import { eventResource } from './resource.js';
import { eventsV1Resource } from './v1-resource.js';
import { EventTtlSweeper, eventTtlMs } from './ttl-sweeper.js';

const PLUGIN_NAME = 'EventsPlugin';
export const EVENT_TTL_FLAG = 'event-ttl';

const EVENT_TTL: FlagSpec = {
  name: EVENT_TTL_FLAG, type: 'duration', default: 3_600_000, section: 'Limits and timeouts of requests', help: 'Event retention.',
  // Upstream converts it to an unsigned lease TTL; a negative one has no meaning.
  validate: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative'),
};

export const EventsPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    let ttlMs = 0;
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => flags.define({ ...EVENT_TTL, owner: PLUGIN_NAME }));
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => { ttlMs = eventTtlMs(cfg.flags.get<number>(EVENT_TTL_FLAG)); });
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      registry.register(eventResource);
      registry.register(eventsV1Resource);
    });

    let sweeper: EventTtlSweeper | undefined;
    // After the API server opened storage (its stage-0 start tap): Events whose TTL passed while
    // the server was down go before start-up completes.
    host.hooks.start.tapPromise({ name: PLUGIN_NAME, stage: 10 }, async () => {
      const store = servedStore(host, '', 'v1', 'events');
      if (!store || ttlMs === 0) return;
      sweeper = new EventTtlSweeper({ storage: store.storage, prefix: store.prefixFor(''), ttlMs, logger: host.logger.child(PLUGIN_NAME) });
      await sweeper.start();
    });
    host.hooks.shutdown.tapPromise({ name: PLUGIN_NAME, stage: -150 }, async () => { await sweeper?.stop(); });
  },
};

export { eventResource, eventSelectableFields } from './resource.js';
export { eventsV1Resource, eventsV1SelectableFields } from './v1-resource.js';
export { eventFromV1, eventToV1, type EventsV1Event } from './v1-conversion.js';
export { EventTtlSweeper, eventTtlMs, lastWriteOf } from './ttl-sweeper.js';
