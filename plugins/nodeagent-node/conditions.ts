// The condition setters of pkg/kubelet/nodestatus, renamed (Kubelet -> NodeAgent): MemoryPressure,
// DiskPressure and PIDPressure, then Ready last (upstream keeps Ready last for old readers). Every
// condition gets lastHeartbeatTime = now on every computation; lastTransitionTime moves only when
// its status changes. A new pressure condition starts Unknown, so its first status is a transition.
import { rfc3339 } from '../../core/api/meta.js';
import {
  NODE_DISK_PRESSURE, NODE_MEMORY_PRESSURE, NODE_PID_PRESSURE, NODE_READY, type Node, type NodeCondition,
} from '../../core/nodes/node-object.js';

/**
 * The kubelet's recordNodeStatusEvent: a setter names the event of a transition (upstream's reasons,
 * NodeHasSufficientMemory, NodeReady, ...), the node agent records `Node <name> status is now: <event>`.
 */
export type RecordNodeStatusEvent = (eventType: string, event: string) => void;

interface PressureTexts {
  readonly type: string;
  readonly yes: [reason: string, message: string];
  readonly no: [reason: string, message: string];
  /** The events of a transition to True and to False. */
  readonly events: [yes: string, no: string];
}

export const MEMORY_PRESSURE: PressureTexts = {
  type: NODE_MEMORY_PRESSURE,
  yes: ['NodeAgentHasInsufficientMemory', 'nodeagent has insufficient memory available'],
  no: ['NodeAgentHasSufficientMemory', 'nodeagent has sufficient memory available'],
  events: ['NodeHasInsufficientMemory', 'NodeHasSufficientMemory'],
};
export const DISK_PRESSURE: PressureTexts = {
  type: NODE_DISK_PRESSURE,
  yes: ['NodeAgentHasDiskPressure', 'nodeagent has disk pressure'],
  no: ['NodeAgentHasNoDiskPressure', 'nodeagent has no disk pressure'],
  events: ['NodeHasDiskPressure', 'NodeHasNoDiskPressure'],
};
export const PID_PRESSURE: PressureTexts = {
  type: NODE_PID_PRESSURE,
  yes: ['NodeAgentHasInsufficientPID', 'nodeagent has insufficient PID available'],
  no: ['NodeAgentHasSufficientPID', 'nodeagent has sufficient PID available'],
  events: ['NodeHasInsufficientPID', 'NodeHasSufficientPID'],
};
export const READY_REASON = 'NodeAgentReady';
export const READY_MESSAGE = 'nodeagent is posting ready status';
export const NOT_READY_REASON = 'NodeAgentNotReady';

function conditionsOf(node: Node): NodeCondition[] {
  const status = (node.status ??= {});
  return (status.conditions ??= []);
}

/** MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition. */
export function setPressureCondition(node: Node, texts: PressureTexts, underPressure: boolean, now: Date, recordEvent?: RecordNodeStatusEvent): void {
  const list = conditionsOf(node);
  let condition = list.find((c) => c.type === texts.type);
  if (!condition) {
    condition = { type: texts.type, status: 'Unknown' };
    list.push(condition);
  }
  const time = rfc3339(now);
  condition.lastHeartbeatTime = time;
  const [status, [reason, message]] = underPressure ? ['True', texts.yes] as const : ['False', texts.no] as const;
  if (condition.status !== status) {
    condition.status = status;
    condition.reason = reason;
    condition.message = message;
    condition.lastTransitionTime = time;
    recordEvent?.('Normal', underPressure ? texts.events[0] : texts.events[1]);
  }
}

/** errors.NewAggregate(errs).Error(): one message bare, several in brackets. */
const aggregate = (errs: readonly string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

/**
 * ReadyCondition: True while the agent posts status and the node reports the capacities the
 * scheduler needs (cpu, memory, pods, and ephemeral-storage with local storage capacity isolation);
 * otherwise False with why.
 */
export function setReadyCondition(node: Node, now: Date, requireEphemeralStorage: boolean, otherErrors: readonly string[] = [], recordEvent?: RecordNodeStatusEvent): void {
  const time = rfc3339(now);
  const required = ['cpu', 'memory', 'pods', ...(requireEphemeralStorage ? ['ephemeral-storage'] : [])];
  const missing = required.filter((r) => node.status?.capacity?.[r] === undefined);
  const errs = [...otherErrors, ...(missing.length ? [`missing node capacity for resources: ${missing.join(', ')}`] : [])];
  const next: NodeCondition = errs.length
    ? { type: NODE_READY, status: 'False', reason: NOT_READY_REASON, message: aggregate(errs), lastHeartbeatTime: time }
    : { type: NODE_READY, status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastHeartbeatTime: time };
  const list = conditionsOf(node);
  const i = list.findIndex((c) => c.type === NODE_READY);
  if (i < 0) {
    list.push({ ...next, lastTransitionTime: time });
    return;
  }
  const old = list[i]!;
  list[i] = { ...next, lastTransitionTime: old.status === next.status ? old.lastTransitionTime ?? null : time };
  // A change of an existing condition only: a node's first Ready condition records nothing.
  if (old.status !== next.status) recordEvent?.('Normal', next.status === 'True' ? 'NodeReady' : 'NodeNotReady');
}
