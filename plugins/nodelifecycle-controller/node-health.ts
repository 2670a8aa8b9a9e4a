// Upstream's tryUpdateNodeHealth: when did the controller last hear from a node? A new Ready
// heartbeat (lastHeartbeatTime changed) or a renewed node Lease (a later renewTime) moves the
// node's probe time to the controller's own `now` (its clock, not the node's, so clock skew between
// them does not matter). Past the grace period (--node-monitor-grace-period, or
// --node-startup-grace-period for a node that never posted Ready) its Ready, MemoryPressure,
// DiskPressure and PIDPressure conditions are set Unknown in the API.
import type { ApiObject } from '../../core/api/meta.js';
import { rfc3339 } from '../../core/api/meta.js';
import { formatDuration } from '../../core/flags/duration.js';
import type { Logger } from '../../core/log.js';
import { NODE_DISK_PRESSURE, NODE_MEMORY_PRESSURE, NODE_PID_PRESSURE, NODE_READY, type Node, type NodeCondition, type NodeStatus } from '../../core/nodes/node-object.js';

/** The part of a coordination Lease read here. */
export interface NodeLease extends ApiObject { spec?: { renewTime?: string | null } }

/** nodeHealthData: the last status and Lease seen, and when (the controller's clock, ms). */
export interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: NodeStatus | undefined;
  lease?: NodeLease | undefined;
}

export interface HealthOptions {
  readonly monitorGraceMs: number;
  readonly startupGraceMs: number;
  /** The wall clock, for the times written into conditions. */
  readonly now: () => Date;
  /** Probe times and the grace check: monotonic, as Go's time.Now readings compare, so a stepped wall clock expires no node. */
  readonly monotonicNow: () => number;
  readonly logger: Logger;
}

/** The conditions set Unknown on expiry; NetworkUnavailable is the control plane's, left alone. */
const EXPIRING_CONDITIONS = [NODE_READY, NODE_MEMORY_PRESSURE, NODE_DISK_PRESSURE, NODE_PID_PRESSURE];

export const readyCondition = (status: NodeStatus | undefined): NodeCondition | undefined => status?.conditions?.find((c) => c.type === NODE_READY);

const time = (s: string | null | undefined): number => (s ? Date.parse(s) : NaN);
const sameCondition = (a: NodeCondition | undefined, b: NodeCondition): boolean => !!a
  && a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '')
  && (a.lastHeartbeatTime ?? null) === (b.lastHeartbeatTime ?? null) && (a.lastTransitionTime ?? null) === (b.lastTransitionTime ?? null);

export interface HealthResult {
  /** The Ready condition as read (or the stand-in for a node that never posted one). */
  readonly observed: NodeCondition;
  /** The Ready condition now, after any change this pass wrote; undefined when the node has none. */
  readonly current: NodeCondition | undefined;
}

/**
 * One node's health: updates `healths` and, when the grace period has passed, writes the node's
 * status through `updateStatus` (which throws to say the write failed: the caller reads the node
 * again and retries). `node` is the caller's copy and is changed in place.
 */
export async function tryUpdateNodeHealth(node: Node, lease: NodeLease | undefined, healths: Map<string, NodeHealth>, o: HealthOptions,
  updateStatus: (node: Node) => Promise<void>): Promise<HealthResult> {
  const log = o.logger;
  const name = node.metadata.name ?? '';
  const now = (): number => o.monotonicNow();
  // A wall time read from the API (the node's creation) on the monotonic scale: now, less its age.
  const fromWall = (s: string | null): number => now() - (o.now().getTime() - time(s));
  const created = node.metadata.creationTimestamp ?? null;
  let health = healths.get(name);
  try {
    const status = (node.status ??= {});
    let current = readyCondition(status);
    let observed: NodeCondition;
    let gracePeriod: number;
    if (!current) {
      // Never posted: a stand-in as old as the node, so the startup grace counts from its creation.
      observed = { type: NODE_READY, status: 'Unknown', lastHeartbeatTime: created, lastTransitionTime: created };
      gracePeriod = o.startupGraceMs;
      if (health) health.status = status;
      else health = { status, probeTimestamp: fromWall(created), readyTransitionTimestamp: fromWall(created) };
    } else {
      observed = { ...current };
      gracePeriod = o.monitorGraceMs;
    }
    const saved = readyCondition(health?.status);
    const savedLease = health?.lease;
    if (!health) {
      log.info('Missing timestamp for Node. Assuming now as a timestamp', { node: name });
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
    } else if (!saved && current) {
      log.v(1).info('Creating timestamp entry for newly observed Node', { node: name });
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
    } else if (saved && !current) {
      log.error('ReadyCondition was removed from Status of Node', { node: name });
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
    } else if (saved && current && (saved.lastHeartbeatTime ?? null) !== (current.lastHeartbeatTime ?? null)) {
      let transition = health.readyTransitionTimestamp;
      if ((saved.lastTransitionTime ?? null) !== (current.lastTransitionTime ?? null)) {
        log.v(3).info('ReadyCondition for Node transitioned from savedCondition to currentReadyCondition', { node: name });
        transition = now();
      }
      log.v(3).info('Node ReadyCondition updated. Updating timestamp', { node: name });
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: transition };
    }
    // A renewed Lease is a heartbeat too (the only one, mostly: agents post status only on change).
    if (lease && (!savedLease || time(savedLease.spec?.renewTime) < time(lease.spec?.renewTime))) {
      health.lease = lease;
      health.probeTimestamp = now();
    }

    if (now() > health.probeTimestamp + gracePeriod) {
      const stamp = rfc3339(o.now());
      for (const type of EXPIRING_CONDITIONS) {
        const c = status.conditions?.find((x) => x.type === type);
        if (!c) {
          log.v(2).info('Condition of node was never updated by kubelet', { nodeConditionType: type, node: name });
          (status.conditions ??= []).push({
            type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
            lastHeartbeatTime: created, lastTransitionTime: stamp,
          });
        } else {
          log.v(2).info("Node hasn't been updated", { node: name, duration: formatDuration(now() - health.probeTimestamp), nodeConditionType: type });
          if (c.status !== 'Unknown') {
            c.status = 'Unknown';
            c.reason = 'NodeStatusUnknown';
            c.message = 'Kubelet stopped posting node status.';
            c.lastTransitionTime = stamp;
          }
        }
      }
      current = readyCondition(status);
      if (!sameCondition(current, observed)) {
        try {
          await updateStatus(node);
        } catch (e) {
          log.error('Error updating node', { node: name, err: (e as Error).message });
          throw e;
        }
        health = { status, probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: now(), lease };
      }
    }
    return { observed, current };
  } finally {
    if (health) healths.set(name, health);
  }
}
