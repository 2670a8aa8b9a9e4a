// The API server's long-running and watch families as 1.32's endpoints/metrics registers them:
// apiserver_longrunning_requests (STABLE; RecordLongRunning around each watch, plat's only
// long-running request), apiserver_watch_events_total and apiserver_watch_events_sizes (ALPHA,
// by group, version and kind, as 1.32 labels them; `resource` came later). A watch looks its
// children up once when it starts; each event then costs an inc and an observe.
import { Children } from './children.js';
import type { CounterChild, GaugeChild, HistogramChild, MetricsRegistry } from './registry.js';

/** ExponentialBuckets(1024, 2.0, 8): 1 KiB to 128 KiB. */
export const WATCH_EVENT_SIZE_BUCKETS = [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

/** One watch's event series: counted before it is written, its embedded object's bytes observed. */
export interface WatchEventSeries {
  readonly events: CounterChild;
  readonly sizes: HistogramChild;
}

export class WatchMetrics {
  readonly #longRunning: Children<GaugeChild>;
  readonly #events: Children<WatchEventSeries>;

  constructor(registry: MetricsRegistry) {
    const longRunning = registry.gauge({
      name: 'apiserver_longrunning_requests', stabilityLevel: 'STABLE',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    });
    const events = registry.counter({
      name: 'apiserver_watch_events_total', stabilityLevel: 'ALPHA',
      help: 'Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'],
    });
    const sizes = registry.histogram({
      name: 'apiserver_watch_events_sizes', stabilityLevel: 'ALPHA',
      help: 'Watch event size distribution in bytes', labelNames: ['group', 'version', 'kind'], buckets: WATCH_EVENT_SIZE_BUCKETS,
    });
    this.#longRunning = new Children((v) => longRunning.labels(...v));
    this.#events = new Children(([group, version, kind]) => ({ events: events.labels(group!, version!, kind!), sizes: sizes.labels(group!, version!, kind!) }));
  }

  /** The gauge a long-running request raises while it runs (labels in upstream's order). */
  longRunning(verb: string, group: string, version: string, resource: string, subresource: string, scope: string, component: string): GaugeChild {
    return this.#longRunning.get(verb, group, version, resource, subresource, scope, component);
  }

  /** The series of a watch of this kind (the request's group and version, as the handler's scope). */
  events(group: string, version: string, kind: string): WatchEventSeries {
    return this.#events.get(group, version, kind);
  }
}
