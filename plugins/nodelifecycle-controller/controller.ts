// Upstream's node lifecycle Controller (pkg/controller/nodelifecycle) without pods: a node event
// queues the node for its NoSchedule taints (from its conditions and spec.unschedulable) and the
// beta os/arch labels; every --node-monitor-period the NodeMonitor checks every node's heartbeats;
// every 100 ms the zones' NoExecute taint queues run.
import { EventBroadcaster } from '../../core/client/events/event-broadcaster.js';
import { restEventSink } from '../../core/client/events/event-sink.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import { sleep, whenAborted } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { LABEL_ARCH, LABEL_ARCH_BETA, LABEL_OS, LABEL_OS_BETA } from '../../core/nodes/node-labels.js';
import { LEASE_RESOURCE, NODE_LEASE_NAMESPACE, NODE_RESOURCE, type Node } from '../../core/nodes/node-object.js';
import type { NodeLease } from './node-health.js';
import { NodeMonitor } from './node-monitor.js';
import { noScheduleTaintDiff, swapTaints } from './taints.js';
import { Zones } from './zones.js';

export interface NodeLifecycleOptions {
  /** --node-monitor-period. */
  readonly monitorPeriodMs: number;
  /** --node-monitor-grace-period. */
  readonly monitorGraceMs: number;
  /** --node-startup-grace-period. */
  readonly startupGraceMs: number;
  /** --node-eviction-rate, --secondary-node-eviction-rate (nodes tainted NoExecute a second). */
  readonly evictionQps: number;
  readonly secondaryEvictionQps: number;
  /** --large-cluster-size-threshold, --unhealthy-zone-threshold. */
  readonly largeClusterThreshold: number;
  readonly unhealthyThreshold: number;
  /** The wall clock of heartbeats and condition times. */
  readonly now: () => Date;
  /** The taint queues' rate limiters' clock (ms). */
  readonly monotonicNow: () => number;
}

/** nodeUpdateWorkerSize. */
const NODE_UPDATE_WORKERS = 8;
/** The source of its Events (upstream's EventSource component). */
const EVENT_SOURCE = 'node-controller';
/** scheduler.NodeEvictionPeriod: how often the NoExecute taint queues run. */
const NODE_EVICTION_PERIOD_MS = 100;

/** labelReconcileInfo: the beta labels follow the stable ones, and are added when missing. */
const LABEL_RECONCILE: readonly (readonly [primary: string, secondary: string])[] = [[LABEL_OS, LABEL_OS_BETA], [LABEL_ARCH, LABEL_ARCH_BETA]];

/** wait.UntilWithContext: `fn` at once, then `periodMs` after each run ends, until aborted. */
async function until(fn: () => Promise<void>, periodMs: number, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await fn();
    await sleep(periodMs, signal);
  }
}

export interface NodeLifecycleController extends Runnable {
  readonly monitor: NodeMonitor;
  readonly zones: Zones;
}

export function nodeLifecycleController(ctx: ControllerContext, controllerName: string, o: NodeLifecycleOptions): NodeLifecycleController {
  const log = ctx.logger;
  const nodes = ctx.informers.for<Node>({ ...NODE_RESOURCE, kind: 'Node' });
  const leases = ctx.informers.for<NodeLease>({ ...LEASE_RESOURCE, kind: 'Lease', namespace: NODE_LEASE_NAMESPACE });
  // Upstream's is a plain queue: a failed pass is logged and waits for the node's next event.
  const queue = new WorkQueue<string>(new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 1000_000), new BucketRateLimiter<string>(10, 100)),
    { name: 'node_lifecycle_controller', metrics: ctx.metrics });
  const zones = new Zones({ ...o, logger: log });
  // NewNodeLifecycleController's broadcaster and recorder; Run starts it (logging at V(3), writing
  // with the controller's client) and shuts it down.
  const events = new EventBroadcaster({ logger: log });
  const monitor = new NodeMonitor({
    client: ctx.client, nodes, leases, leaseNamespace: NODE_LEASE_NAMESPACE, zones, logger: log, recorder: events.newRecorder({ component: EVENT_SOURCE }),
    monitorGraceMs: o.monitorGraceMs, startupGraceMs: o.startupGraceMs, now: o.now, monotonicNow: o.monotonicNow,
  });

  log.info('Controller will reconcile labels');
  nodes.addHandlers({ add: (n) => queue.add(n.metadata.name ?? ''), update: (_old, n) => queue.add(n.metadata.name ?? '') });

  /** doNoScheduleTaintingPass. */
  async function noScheduleTaintingPass(name: string, signal: AbortSignal): Promise<void> {
    const node = nodes.get(name);
    if (!node) return;
    const { add, remove } = noScheduleTaintDiff(node);
    if (!add.length && !remove.length) return;
    if (!(await swapTaints(ctx.client, log, node, add, remove, o.now(), signal))) throw new Error(`failed to swap taints of node ${name}`);
  }

  /** reconcileNodeLabels. */
  async function reconcileNodeLabels(name: string, signal: AbortSignal): Promise<void> {
    const labels = nodes.get(name)?.metadata.labels;
    if (!labels) return;
    const toUpdate: Record<string, string> = {};
    for (const [primary, secondary] of LABEL_RECONCILE) {
      const value = labels[primary];
      if (value !== undefined && labels[secondary] !== value) toUpdate[secondary] = value;
    }
    if (!Object.keys(toUpdate).length) return;
    try {
      await ctx.client.patch(NODE_RESOURCE, name, { metadata: { labels: toUpdate } });
    } catch (e) {
      if (!signal.aborted) log.error('Unhandled Error', { err: `failed to update labels for node ${name}: ${goClientErrorText(e)}` });
      throw new Error(`failed update labels for node ${name}`);
    }
  }

  /** doNodeProcessingPassWorker. */
  async function worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const name = await queue.get();
      if (name === undefined) return;
      try {
        await noScheduleTaintingPass(name, signal).catch((e: Error) => {
          if (!signal.aborted) log.error('Failed to taint NoSchedule on node, requeue it', { node: name, err: e.message });
        });
        await reconcileNodeLabels(name, signal).catch((e: Error) => {
          if (!signal.aborted) log.error('Failed to reconcile labels for node, requeue it', { node: name, err: e.message });
        });
      } finally {
        queue.done(name);
      }
    }
  }

  return {
    monitor, zones,
    async run(signal: AbortSignal): Promise<void> {
      events.startStructuredLogging(3);
      events.startRecordingToSink(restEventSink(ctx.client));
      log.info('Starting controller', { controller: controllerName });
      await Promise.all([nodes.waitForSync(signal), leases.waitForSync(signal)]);
      if (!signal.aborted) {
        const running = [
          ...Array.from({ length: NODE_UPDATE_WORKERS }, () => worker(signal)),
          until(() => monitor.doNoExecuteTaintingPass(signal), NODE_EVICTION_PERIOD_MS, signal),
          until(() => monitor.monitorNodeHealth(signal).catch((e: Error) => log.error('Error monitoring node health', { err: e.message })), o.monitorPeriodMs, signal),
        ];
        await whenAborted(signal);
        await queue.shutDown();
        await Promise.all(running);
      }
      log.info('Shutting down controller', { controller: controllerName });
      events.shutdown();
    },
  };
}
