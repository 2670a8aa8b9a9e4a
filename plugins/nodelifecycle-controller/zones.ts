// Zones and their disruption states (upstream's ComputeZoneState, handleDisruption,
// setLimiterInZone, addPodEvictorForNewZone): each zone has a NoExecute taint queue whose rate
// follows the zone's health, so that a network partition that makes a whole zone (or the whole
// cluster) look dead does not taint every node in it at once.
import type { Logger } from '../../core/log.js';
import { LABEL_FAILURE_DOMAIN_BETA_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE } from '../../core/nodes/node-labels.js';
import type { Node, NodeCondition } from '../../core/nodes/node-object.js';
import { RateLimitedTimedQueue } from './rate-limited-timed-queue.js';

export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/**
 * nodetopology.GetZoneKey: `region:\0:zone` from the beta failure-domain labels, else the topology
 * ones; "" when the node has neither (a cluster without zones is one zone).
 */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] ?? labels[LABEL_TOPOLOGY_ZONE] ?? '';
  const region = labels[LABEL_FAILURE_DOMAIN_BETA_REGION] ?? labels[LABEL_TOPOLOGY_REGION] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\0:${zone}`;
}

/**
 * ComputeZoneState: FullDisruption when no node of the zone is Ready (a missing condition counts as
 * not Ready), PartialDisruption when more than 2 are not and they are at least `unhealthyThreshold`
 * of it, Normal otherwise; with the number not Ready.
 */
export function computeZoneState(readyConditions: readonly (NodeCondition | undefined)[], unhealthyThreshold: number): [number, ZoneState] {
  const ready = readyConditions.filter((c) => c?.status === 'True').length;
  const notReady = readyConditions.length - ready;
  if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  // float32 division and comparison, as upstream's
  if (notReady > 2 && Math.fround(notReady / (notReady + ready)) >= unhealthyThreshold) return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

export interface ZoneOptions {
  /** --node-eviction-rate. */
  readonly evictionQps: number;
  /** --secondary-node-eviction-rate. */
  readonly secondaryEvictionQps: number;
  /** --large-cluster-size-threshold. */
  readonly largeClusterThreshold: number;
  /** --unhealthy-zone-threshold. */
  readonly unhealthyThreshold: number;
  /** Monotonic milliseconds, for the taint queues' token buckets. */
  readonly monotonicNow: () => number;
  readonly logger: Logger;
}

/** What handleDisruption asks of the controller besides the limiters it set. */
export type DisruptionChange = 'enteredFullDisruption' | 'exitedFullDisruption' | undefined;

export class Zones {
  readonly states = new Map<string, ZoneState>();
  readonly tainters = new Map<string, RateLimitedTimedQueue>();
  constructor(private readonly o: ZoneOptions) {}

  /** HealthyQPSFunc: the eviction rate, whatever the size (enterFullDisruptionFunc). */
  healthyQps(_nodes: number): number { return this.o.evictionQps; }
  /** ReducedQPSFunc: the secondary rate in a large zone, none in a small one (enterPartialDisruptionFunc). */
  reducedQps(nodes: number): number { return nodes > this.o.largeClusterThreshold ? this.o.secondaryEvictionQps : 0; }

  /** addPodEvictorForNewZone: a zone seen for the first time starts Initial with the eviction rate. */
  addForNewZone(zone: string): void {
    if (this.states.has(zone)) return;
    this.states.set(zone, 'Initial');
    this.tainters.set(zone, new RateLimitedTimedQueue(this.o.evictionQps, this.o.monotonicNow));
    this.o.logger.info('Initializing eviction metric for zone', { zone });
  }

  /** The taint queue of a node's zone (made when the zone is new). */
  tainterOf(node: Node): RateLimitedTimedQueue {
    const zone = zoneKey(node);
    this.addForNewZone(zone);
    return this.tainters.get(zone)!;
  }

  #setLimiter(zone: string, size: number, state: ZoneState): void {
    const q = this.tainters.get(zone);
    if (!q) return;
    if (state === 'Normal') q.swapLimiter(this.o.evictionQps);
    else if (state === 'PartialDisruption') q.swapLimiter(this.reducedQps(size));
    else if (state === 'FullDisruption') q.swapLimiter(this.healthyQps(size));
  }

  /**
   * handleDisruption over the Ready conditions of each zone's nodes (those not excluded): new states,
   * and the limiters they call for. All zones fully disrupted (the control plane is more likely
   * cut off than every node dead) stops every taint queue; leaving that mode restores the rates.
   */
  handleDisruption(zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>): DisruptionChange {
    const log = this.o.logger;
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneConditions) {
      const [, state] = computeZoneState(conditions, this.o.unhealthyThreshold);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!this.states.has(zone)) {
        log.error('Setting initial state for unseen zone', { zone });
        this.states.set(zone, 'Initial');
      }
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.states]) {
      // A zone with no node left (or only excluded ones) is forgotten.
      if (!zoneConditions.has(zone)) { this.states.delete(zone); continue; }
      if (state !== 'FullDisruption') allWasFullyDisrupted = false;
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return undefined;
    if (allAreFullyDisrupted) {
      log.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const zone of this.states.keys()) {
        this.tainters.get(zone)?.swapLimiter(0);
        this.states.set(zone, 'FullDisruption');
      }
      return 'enteredFullDisruption';
    }
    if (allWasFullyDisrupted) {
      log.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      for (const zone of this.states.keys()) {
        const state = newStates.get(zone)!;
        this.#setLimiter(zone, zoneConditions.get(zone)?.length ?? 0, state);
        this.states.set(zone, state);
      }
      return 'exitedFullDisruption';
    }
    for (const [zone, state] of this.states) {
      const next = newStates.get(zone)!;
      if (state === next) continue;
      log.info('Controller detected that zone is now in new state', { zone, newState: next });
      this.#setLimiter(zone, zoneConditions.get(zone)?.length ?? 0, next);
      this.states.set(zone, next);
    }
    return undefined;
  }
}
