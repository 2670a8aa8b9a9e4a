// setNodeStatus: upstream's status setters in their order (addresses, machine info, versions,
// daemon endpoints, OS and architecture, then the conditions with Ready last). A setter that fails
// is logged and the others still run, as upstream does, so an address problem does not hide the
// node's readiness. nodeStatusHasChanged decides whether a status is worth posting before the
// report interval is up: anything but the conditions' heartbeat times.
import { isDeepStrictEqual } from 'node:util';
import { tryParseQuantity } from '../../core/api/quantity.js';
import type { Logger } from '../../core/log.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import type { Node, NodeCondition, NodeStatus } from '../../core/nodes/node-object.js';
import { setNodeAddresses, type AddressInputs } from './addresses.js';
import { emptyNodeInfo, setMachineInfo } from './capacity.js';
import { DISK_PRESSURE, MEMORY_PRESSURE, PID_PRESSURE, setPressureCondition, setReadyCondition, type RecordNodeStatusEvent } from './conditions.js';
import type { MachineInfo } from './machine.js';

export interface PressureSignals {
  memory(): boolean;
  disk(): boolean;
  pid(): boolean;
}

/** plat runs no eviction manager: no signal is ever under pressure. */
export const NO_PRESSURE: PressureSignals = { memory: () => false, disk: () => false, pid: () => false };

export interface StatusInputs extends AddressInputs {
  readonly config: Readonly<NodeAgentConfiguration>;
  /** The GitVersion (`v1.32.0+plat.<version>`), reported as the node agent's version. */
  readonly version: string;
  readonly machine: () => Promise<MachineInfo>;
  readonly pressure: PressureSignals;
  readonly now: () => Date;
  readonly logger: Logger;
  /** Where the conditions' transitions are recorded as Events (none: not recorded). */
  readonly recordEvent?: RecordNodeStatusEvent;
}

export async function setNodeStatus(node: Node, inputs: StatusInputs): Promise<void> {
  const failed = (e: unknown) => inputs.logger.error('Failed to set some node status fields', { node: node.metadata.name, err: (e as Error).message });
  try { await setNodeAddresses(node, inputs); } catch (e) { failed(e); }
  let machine: MachineInfo | undefined;
  try {
    machine = await inputs.machine();
    setMachineInfo(node, machine, inputs.config);
  } catch (e) { failed(e); }
  const status = (node.status ??= {});
  const info = (status.nodeInfo = { ...emptyNodeInfo(), ...status.nodeInfo });
  if (machine) {
    info.kernelVersion = machine.kernelVersion;
    info.osImage = machine.osImage;
    info.operatingSystem = machine.operatingSystem;
    info.architecture = machine.architecture;
  }
  // No container runtime: nothing to report where upstream puts `<runtime>://<version>`.
  info.containerRuntimeVersion = '';
  info.kubeletVersion = inputs.version;
  status.daemonEndpoints = { kubeletEndpoint: { Port: inputs.config.port } };
  const now = inputs.now();
  const record = inputs.recordEvent;
  setPressureCondition(node, MEMORY_PRESSURE, inputs.pressure.memory(), now, record);
  setPressureCondition(node, DISK_PRESSURE, inputs.pressure.disk(), now, record);
  setPressureCondition(node, PID_PRESSURE, inputs.pressure.pid(), now, record);
  setReadyCondition(node, now, inputs.config.localStorageCapacityIsolation, [], record);
}

const byType = (a: NodeCondition, b: NodeCondition): number => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
/** Through JSON, as the status would travel: a field set to undefined is no field. */
const withoutHeartbeat = (c: NodeCondition): NodeCondition => JSON.parse(JSON.stringify({ ...c, lastHeartbeatTime: null })) as NodeCondition;

function conditionsChanged(a: readonly NodeCondition[] | undefined, b: readonly NodeCondition[] | undefined): boolean {
  const x = [...(a ?? [])].sort(byType).map(withoutHeartbeat);
  const y = [...(b ?? [])].sort(byType).map(withoutHeartbeat);
  return !isDeepStrictEqual(x, y);
}

/**
 * Quantities by value, as equality.Semantic compares them: the server stores the canonical form of
 * what it decoded ("96636764000" bytes come back as "96636764k"), which is the same amount.
 */
function byValue(list: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!list) return undefined;
  return Object.fromEntries(Object.entries(list).map(([k, v]) => [k, tryParseQuantity(v)?.nanos.toString() ?? v]));
}

/** nodeStatusHasChanged: any difference but the conditions' heartbeat times. */
export function nodeStatusHasChanged(original: NodeStatus | undefined, status: NodeStatus | undefined): boolean {
  if (conditionsChanged(original?.conditions, status?.conditions)) return true;
  const rest = (s: NodeStatus | undefined) => {
    const { conditions: _c, ...r } = s ?? {};
    return JSON.parse(JSON.stringify({ ...r, capacity: byValue(r.capacity), allocatable: byValue(r.allocatable) })) as unknown;
  };
  return !isDeepStrictEqual(rest(original), rest(status));
}
