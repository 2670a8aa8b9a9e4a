// The taints the node lifecycle controller owns and how it writes them (upstream's
// nodeConditionToTaintKeyStatusMap, taintutils and controller.AddOrUpdateTaintOnNode /
// RemoveTaintOffNode / SwapNodeControllerTaint). Writes are a merge patch of spec.taints carrying
// the resourceVersion read, as upstream's PatchNodeTaints, so a write between read and patch is a
// Conflict and the whole step is tried again (5 tries, 100 ms jittered up to twice itself).
import { rfc3339 } from '../../core/api/meta.js';
import { sleep } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import type { Logger } from '../../core/log.js';
import {
  NODE_DISK_PRESSURE, NODE_MEMORY_PRESSURE, NODE_NETWORK_UNAVAILABLE, NODE_PID_PRESSURE, NODE_READY, NODE_RESOURCE,
  TAINT_NODE_DISK_PRESSURE, TAINT_NODE_MEMORY_PRESSURE, TAINT_NODE_NETWORK_UNAVAILABLE, TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE, TAINT_NODE_UNREACHABLE, TAINT_NODE_UNSCHEDULABLE, type Node, type NodeTaint,
} from '../../core/nodes/node-object.js';

/** UnreachableTaintTemplate and NotReadyTaintTemplate: what doNoExecuteTaintingPass sets. */
export const UNREACHABLE_NO_EXECUTE: NodeTaint = Object.freeze({ key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' });
export const NOT_READY_NO_EXECUTE: NodeTaint = Object.freeze({ key: TAINT_NODE_NOT_READY, effect: 'NoExecute' });

/** nodeConditionToTaintKeyStatusMap: condition type -> status -> NoSchedule taint key. */
const CONDITION_TAINTS: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map([
  [NODE_READY, { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE }],
  [NODE_MEMORY_PRESSURE, { True: TAINT_NODE_MEMORY_PRESSURE }],
  [NODE_DISK_PRESSURE, { True: TAINT_NODE_DISK_PRESSURE }],
  [NODE_NETWORK_UNAVAILABLE, { True: TAINT_NODE_NETWORK_UNAVAILABLE }],
  [NODE_PID_PRESSURE, { True: TAINT_NODE_PID_PRESSURE }],
]);
/** taintKeyToNodeConditionMap's keys: the NoSchedule taints this controller may take off. */
const CONDITION_TAINT_KEYS: ReadonlySet<string> = new Set([...CONDITION_TAINTS.values()].flatMap((m) => Object.values(m)));

/** taint.MatchTaint: the same key and effect. */
const matches = (a: NodeTaint, b: NodeTaint): boolean => a.key === b.key && a.effect === b.effect;
export const taintExists = (taints: readonly NodeTaint[] | undefined, t: NodeTaint): boolean => (taints ?? []).some((x) => matches(x, t));

/** The NoSchedule taints a node's conditions and spec.unschedulable call for (doNoScheduleTaintingPass). */
export function noScheduleTaintsFor(node: Node): NodeTaint[] {
  const wanted: NodeTaint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS.get(c.type)?.[c.status];
    if (key) wanted.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) wanted.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
  return wanted;
}

/** taintutils.TaintSetDiff of what a node should carry against its NoSchedule taints this controller owns. */
export function noScheduleTaintDiff(node: Node): { add: NodeTaint[]; remove: NodeTaint[] } {
  const wanted = noScheduleTaintsFor(node);
  const owned = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)));
  return { add: wanted.filter((t) => !taintExists(owned, t)), remove: owned.filter((t) => !taintExists(wanted, t)) };
}

/** UpdateTaintBackoff: 5 steps of 100 ms, jitter 1.0. */
const TRIES = 5;
const BACKOFF_MS = 100;

/**
 * Reads the node (the informer's copy first, as upstream reads the API server's cache first, then
 * the API server), applies `change`, and patches spec.taints when it changed anything; a Conflict
 * starts over from a fresh read (clientretry.RetryOnConflict).
 */
async function updateTaints(client: RestClient, cached: Node, change: (taints: NodeTaint[]) => NodeTaint[] | undefined, signal: AbortSignal): Promise<void> {
  let node: Node = cached;
  for (let attempt = 1; ; attempt++) {
    const next = change([...(node.spec?.taints ?? [])]);
    if (!next) return;
    try {
      await client.patch(NODE_RESOURCE, node.metadata.name ?? '', { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints: next.length ? next : null } });
      return;
    } catch (e) {
      if (!isApiError(e, 'Conflict') || attempt >= TRIES || signal.aborted) throw e;
    }
    await sleep(BACKOFF_MS * (1 + Math.random()), signal);
    node = await client.get<Node>(NODE_RESOURCE, node.metadata.name ?? '', undefined, { signal });
  }
}

/** taintutils.AddOrUpdateTaint for each taint: a taint of the same key and effect is replaced unless equal. */
function withTaints(taints: NodeTaint[], add: readonly NodeTaint[]): NodeTaint[] | undefined {
  let updated = false;
  for (const t of add) {
    const i = taints.findIndex((x) => matches(x, t));
    if (i < 0) { taints.push(t); updated = true; continue; }
    const old = taints[i]!;
    if (old.value === t.value && old.timeAdded === t.timeAdded) continue;
    taints[i] = t;
    updated = true;
  }
  return updated ? taints : undefined;
}

/** controller.AddOrUpdateTaintOnNode. */
export function addTaints(client: RestClient, node: Node, add: readonly NodeTaint[], signal: AbortSignal): Promise<void> {
  if (!add.length) return Promise.resolve();
  return updateTaints(client, node, (taints) => withTaints(taints, add), signal);
}

/** controller.RemoveTaintOffNode: nothing is asked of the server when the node carries none of them. */
export function removeTaints(client: RestClient, node: Node, remove: readonly NodeTaint[], signal: AbortSignal): Promise<void> {
  if (!remove.some((t) => taintExists(node.spec?.taints, t))) return Promise.resolve();
  return updateTaints(client, node, (taints) => {
    const kept = taints.filter((x) => !remove.some((t) => matches(x, t)));
    return kept.length === taints.length ? undefined : kept;
  }, signal);
}

/**
 * controller.SwapNodeControllerTaint: stamps the taints to add with the time (upstream's TimeAdded),
 * adds them, then removes the others. False (logged as upstream's HandleError) when either write failed.
 */
export async function swapTaints(client: RestClient, log: Logger, node: Node, add: readonly NodeTaint[], remove: readonly NodeTaint[], now: Date, signal: AbortSignal): Promise<boolean> {
  const stamped = add.map((t) => ({ ...t, timeAdded: rfc3339(now) }));
  try {
    await addTaints(client, node, stamped, signal);
  } catch (e) {
    if (!signal.aborted) log.error('Unhandled Error', { err: `unable to taint [${add.map(taintText).join(' ')}] unresponsive Node "${node.metadata.name}": ${goClientErrorText(e)}` });
    return false;
  }
  log.v(4).info('Added taint to node', { taint: `[${add.map(taintText).join(' ')}]`, node: node.metadata.name });
  try {
    await removeTaints(client, node, remove, signal);
  } catch (e) {
    if (!signal.aborted) log.error('Unhandled Error', { err: `unable to remove [${remove.map(taintText).join(' ')}] unneeded taint from unresponsive Node "${node.metadata.name}": ${goClientErrorText(e)}` });
    return false;
  }
  return true;
}

/** v1.Taint's String(): `key=value:Effect`, the value left out when empty. */
export const taintText = (t: NodeTaint): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
