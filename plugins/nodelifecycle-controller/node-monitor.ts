// Upstream's monitorNodeHealth and doNoExecuteTaintingPass: every --node-monitor-period each node's
// health is brought up to date from the informers' caches (node-health.ts), a node that is not
// Ready joins its zone's NoExecute taint queue (or has its not-ready/unreachable taint swapped at
// once), a Ready one loses both, and the zones' states set how fast those queues may taint.
import type { ObjectReference } from '../../core/api/event.js';
import type { EventRecorder } from '../../core/client/events/event-broadcaster.js';
import { rfc3339 } from '../../core/api/meta.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { RestClient } from '../../core/client/rest-client.js';
import type { Informer } from '../../core/controller/informer.js';
import type { Logger } from '../../core/log.js';
import { LABEL_NODE_EXCLUDE_DISRUPTION, NODE_RESOURCE, type Node, type NodeCondition } from '../../core/nodes/node-object.js';
import { readyCondition, tryUpdateNodeHealth, type HealthOptions, type NodeHealth, type NodeLease } from './node-health.js';
import { NOT_READY_NO_EXECUTE, removeTaints, swapTaints, taintExists, UNREACHABLE_NO_EXECUTE } from './taints.js';
import { zoneKey, Zones } from './zones.js';

/** nodeUpdateWorkerSize: nodes brought up to date at once. */
const NODE_UPDATE_WORKERS = 8;
/** retrySleepTime and NodeHealthUpdateRetry: a failed status write is tried again 5 times, 20 ms apart. */
const RETRY_SLEEP_MS = 20;
const HEALTH_UPDATE_RETRIES = 5;

export interface NodeMonitorOptions extends HealthOptions {
  readonly client: RestClient;
  readonly nodes: Informer<Node>;
  /** Leases of plat-node-lease, keyed `plat-node-lease/<node>`. */
  readonly leases: Informer<NodeLease>;
  readonly leaseNamespace: string;
  readonly zones: Zones;
  readonly logger: Logger;
  /** The controller's recorder (source `node-controller`). */
  readonly recorder: EventRecorder;
}

const clone = <T>(o: T): T => structuredClone(o);

export class NodeMonitor {
  /** knownNodeSet. */
  readonly #known = new Map<string, Node>();
  /** nodeHealthMap. */
  readonly healths = new Map<string, NodeHealth>();
  constructor(private readonly o: NodeMonitorOptions) {}

  get #log(): Logger { return this.o.logger; }

  /** The reference RecordNodeEvent and RecordNodeStatusChange make: no namespace, so the Event goes to `default`. */
  #ref(node: Node): ObjectReference {
    return { apiVersion: 'v1', kind: 'Node', name: node.metadata.name ?? '', uid: node.metadata.uid ?? '' };
  }

  /** RecordNodeEvent. */
  #event(node: Node, reason: string, event: string): void {
    const name = node.metadata.name ?? '';
    this.#log.v(2).info('Recording event message for node', { event, node: name });
    this.o.recorder.event(this.#ref(node), 'Normal', reason, `Node ${name} event: ${event}`);
  }

  /** monitorNodeHealth. */
  async monitorNodeHealth(signal: AbortSignal): Promise<void> {
    const nodes = this.o.nodes.list();
    const seen = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (this.#known.has(name)) { this.o.zones.addForNewZone(zoneKey(node)); continue; }
      this.#log.v(1).info('Controller observed a new Node', { node: name });
      this.#event(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
      this.#known.set(name, node);
      this.o.zones.addForNewZone(zoneKey(node));
      await this.markNodeAsReachable(node, signal);
    }
    for (const [name, node] of [...this.#known]) {
      if (seen.has(name)) continue;
      this.#log.v(1).info('Controller observed a Node deletion', { node: name });
      this.#event(node, 'RemovingNode', `Removing Node ${name} from Controller`);
      this.#known.delete(name);
    }

    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < nodes.length && !signal.aborted) {
        const node = nodes[next++]!;
        const updated = await this.#updateNode(clone(node), signal);
        if (!updated || node.metadata.labels?.[LABEL_NODE_EXCLUDE_DISRUPTION] !== undefined) continue;
        const zone = zoneKey(updated.node);
        zoneConditions.set(zone, [...(zoneConditions.get(zone) ?? []), updated.current]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(NODE_UPDATE_WORKERS, nodes.length) }, worker));
    if (signal.aborted) return;

    const change = this.o.zones.handleDisruption(zoneConditions);
    if (change === 'enteredFullDisruption') {
      for (const node of nodes) await this.markNodeAsReachable(node, signal);
    } else if (change === 'exitedFullDisruption') {
      // Every node gets a full grace period again: the silence was the control plane's.
      const now = this.o.monotonicNow();
      for (const node of nodes) {
        const h = this.healths.get(node.metadata.name ?? '');
        if (h) this.healths.set(node.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
  }

  /** updateNodeFunc: the node's health (its status write retried from a fresh read), then its NoExecute taints. */
  async #updateNode(node: Node, signal: AbortSignal): Promise<{ node: Node; current: NodeCondition | undefined } | undefined> {
    const name = node.metadata.name ?? '';
    let result;
    for (let attempt = 1; ; attempt++) {
      try {
        const lease = this.o.leases.get(`${this.o.leaseNamespace}/${name}`);
        result = await tryUpdateNodeHealth(node, lease, this.healths, this.o, async (n) => {
          const written = await this.o.client.update<Node>(NODE_RESOURCE, n, 'status', { signal });
          if (written.metadata.resourceVersion) n.metadata.resourceVersion = written.metadata.resourceVersion;
        });
        break;
      } catch (e) {
        if (signal.aborted) return undefined;
        if (attempt >= HEALTH_UPDATE_RETRIES) {
          this.#log.error('Update health of Node from Controller error, Skipping - no pods will be evicted', { node: name, err: goClientErrorText(e) });
          return undefined;
        }
        await new Promise((r) => setTimeout(r, RETRY_SLEEP_MS));
        try {
          node = await this.o.client.get<Node>(NODE_RESOURCE, name, undefined, { signal });
        } catch (getError) {
          this.#log.error('Failed while getting a Node to retry updating node health. Probably Node was deleted', { node: name });
          this.#log.error('Update health of Node from Controller error, Skipping - no pods will be evicted', { node: name, err: goClientErrorText(getError) });
          return undefined;
        }
      }
    }
    const { observed, current } = result;
    if (current) {
      await this.#processTaintBaseEviction(node, observed, signal);
      if (current.status !== 'True' && observed.status === 'True') {
        // RecordNodeStatusChange; MarkPodsNotReady has no pods to mark: plat runs none.
        this.#log.v(2).info('Recording status change event message for node', { status: 'NodeNotReady', node: name });
        this.o.recorder.event(this.#ref(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      }
    }
    return { node, current };
  }

  /** processTaintBaseEviction: what the Ready condition seen at the start of the pass calls for. */
  async #processTaintBaseEviction(node: Node, observed: NodeCondition, signal: AbortSignal): Promise<void> {
    const log = this.#log;
    const name = node.metadata.name ?? '';
    const decisionTimestamp = rfc3339(this.o.now());
    if (observed.status === 'False' || observed.status === 'Unknown') {
      const [wanted, opposite] = observed.status === 'False' ? [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE] : [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
      // Tainted the other way already: swapped at once, outside the rate limit.
      if (taintExists(node.spec?.taints, opposite)) {
        if (!(await swapTaints(this.o.client, log, node, [wanted], [opposite], this.o.now(), signal)) && !signal.aborted) {
          log.error(observed.status === 'False'
            ? 'Failed to instantly swap UnreachableTaint to NotReadyTaint. Will try again in the next cycle'
            : 'Failed to instantly swap NotReadyTaint to UnreachableTaint. Will try again in the next cycle');
        }
      } else if (this.#markNodeForTainting(node, wanted)) {
        log.v(2).info(observed.status === 'False' ? 'Node is NotReady. Adding it to the Taint queue' : 'Node is unresponsive. Adding it to the Taint queue',
          { node: name, timeStamp: decisionTimestamp });
      }
    } else if (observed.status === 'True') {
      const removed = await this.markNodeAsReachable(node, signal);
      if (removed) log.v(2).info('Node is healthy again, removed all taints', { node: name });
    }
  }

  /** markNodeForTainting: a node not carrying the taint it needs is queued afresh. */
  #markNodeForTainting(node: Node, wanted: typeof NOT_READY_NO_EXECUTE): boolean {
    const queue = this.o.zones.tainterOf(node);
    const name = node.metadata.name ?? '';
    if (!taintExists(node.spec?.taints, wanted)) queue.remove(name);
    return queue.add(name, node.metadata.uid ?? '');
  }

  /** markNodeAsReachable: both NoExecute taints off, and out of the taint queue; true when it was queued. */
  async markNodeAsReachable(node: Node, signal: AbortSignal): Promise<boolean> {
    const name = node.metadata.name ?? '';
    for (const [taint, what] of [[UNREACHABLE_NO_EXECUTE, 'unreachable'], [NOT_READY_NO_EXECUTE, 'not-ready']] as const) {
      try {
        await removeTaints(this.o.client, node, [taint], signal);
      } catch (e) {
        if (!signal.aborted) this.#log.error(`Failed to remove ${what} taint from node`, { node: name, err: goClientErrorText(e) });
        return false;
      }
    }
    return this.o.zones.tainterOf(node).remove(name);
  }

  /** doNoExecuteTaintingPass: each zone's queue taints what its limiter lets through. */
  async doNoExecuteTaintingPass(signal: AbortSignal): Promise<void> {
    const log = this.#log;
    for (const queue of [...this.o.zones.tainters.values()]) {
      await queue.try(async ({ value }) => {
        if (signal.aborted) return { done: false };
        const node = this.o.nodes.get(value);
        if (!node) {
          log.info('Node no longer present in nodeLister', { node: value });
          return { done: true };
        }
        const ready = readyCondition(node.status);
        if (!ready) {
          log.info('Failed to get NodeCondition from the node status', { node: value });
          return { done: false, waitMs: 50 };
        }
        // Unreachable and not-ready mirror Ready's Unknown and False, so they never go together.
        if (ready.status !== 'False' && ready.status !== 'Unknown') {
          log.v(4).info("Node was in a taint queue, but it's ready now. Ignoring taint request", { node: value });
          return { done: true };
        }
        const [wanted, opposite] = ready.status === 'False' ? [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE] : [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
        return { done: await swapTaints(this.o.client, log, node, [wanted], [opposite], this.o.now(), signal) };
      });
    }
  }
}
