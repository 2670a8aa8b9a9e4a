// client-go's work queue metrics as component-base's prometheus/workqueue registers them (ALPHA in
// 1.32), one child per queue name (upstream's queue Name: "certificate" for the CSR controllers).
// Queues of the same name share their children, as upstream's do; the unfinished-work and
// longest-running gauges, which upstream sets from a 500ms ticker per queue, are read at scrape
// time over the live queues of each name (summed, and the longest), so an idle process pays nothing.
import type { CounterChild, GaugeChild, HistogramChild, MetricsRegistry } from './registry.js';

/** 1.32's ExponentialBuckets(10e-9, 10, 10), computed as upstream does (float steps and all). */
const BUCKETS = ((): number[] => {
  const out: number[] = [];
  let b = 10e-9;
  for (let i = 0; i < 10; i++, b *= 10) out.push(b);
  return out;
})();

/** What a queue reports, as client-go's queueMetrics and retryMetrics. */
export interface QueueMetrics {
  add(item: unknown): void;
  get(item: unknown): void;
  done(item: unknown): void;
  retry(): void;
  /** The queue has shut down: its items in progress no longer count as unfinished work. */
  close(): void;
}

interface Families {
  readonly depth: (name: string) => GaugeChild;
  readonly adds: (name: string) => CounterChild;
  readonly latency: (name: string) => HistogramChild;
  readonly workDuration: (name: string) => HistogramChild;
  readonly retries: (name: string) => CounterChild;
  /** Live queues by name, each with its items' processing start times. */
  readonly live: Map<string, Set<Map<unknown, number>>>;
}

const families = new WeakMap<MetricsRegistry, Families>();

function register(registry: MetricsRegistry): Families {
  const labelNames = ['name'];
  const live = new Map<string, Set<Map<unknown, number>>>();
  const ages = function* (pick: (ages: number[]) => number) {
    const now = performance.now();
    for (const [name, queues] of live) {
      const all = [...queues].flatMap((q) => [...q.values()].map((start) => (now - start) / 1000));
      yield [[name], pick(all)] as const;
    }
  };
  const depth = registry.gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames });
  const adds = registry.counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames });
  const latency = registry.histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested.', labelNames, buckets: BUCKETS });
  const workDuration = registry.histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes.', labelNames, buckets: BUCKETS });
  registry.collector('gauge', {
    name: 'workqueue_unfinished_work_seconds', labelNames,
    help: 'How many seconds of work has done that is in progress and hasn\'t been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
  }, () => ages((a) => a.reduce((x, y) => x + y, 0)));
  registry.collector('gauge', {
    name: 'workqueue_longest_running_processor_seconds', labelNames,
    help: 'How many seconds has the longest running processor for workqueue been running.',
  }, () => ages((a) => Math.max(0, ...a)));
  const retries = registry.counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames });
  return {
    depth: (n) => depth.labels(n), adds: (n) => adds.labels(n), latency: (n) => latency.labels(n),
    workDuration: (n) => workDuration.labels(n), retries: (n) => retries.labels(n), live,
  };
}

/** The families, registered once per registry (upstream registers them at init, before any queue). */
function workqueueFamilies(registry: MetricsRegistry): Families {
  let f = families.get(registry);
  if (!f) families.set(registry, (f = register(registry)));
  return f;
}

export function registerWorkqueueMetrics(registry: MetricsRegistry): void { workqueueFamilies(registry); }

/** newQueueMetrics: the metrics of one queue called `name` (an unnamed queue reports nothing, as upstream's). */
export function queueMetrics(registry: MetricsRegistry, name: string): QueueMetrics | undefined {
  if (name === '') return undefined;
  const f = workqueueFamilies(registry);
  const depth = f.depth(name);
  const adds = f.adds(name);
  const latency = f.latency(name);
  const workDuration = f.workDuration(name);
  const retries = f.retries(name);
  const addTimes = new Map<unknown, number>();
  const processing = new Map<unknown, number>();
  let queues = f.live.get(name);
  if (!queues) f.live.set(name, (queues = new Set()));
  queues.add(processing);
  return {
    add(item) {
      adds.inc();
      depth.inc();
      if (!addTimes.has(item)) addTimes.set(item, performance.now());
    },
    get(item) {
      depth.dec();
      const now = performance.now();
      processing.set(item, now);
      const added = addTimes.get(item);
      if (added !== undefined) {
        latency.observe((now - added) / 1000);
        addTimes.delete(item);
      }
    },
    done(item) {
      const started = processing.get(item);
      if (started === undefined) return;
      workDuration.observe((performance.now() - started) / 1000);
      processing.delete(item);
    },
    retry() { retries.inc(); },
    // The name stays (its series at 0), as upstream's children outlive their queues.
    close() { queues.delete(processing); },
  };
}
