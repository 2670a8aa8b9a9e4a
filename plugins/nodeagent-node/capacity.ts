// The MachineInfo status setter (pkg/kubelet/nodestatus) and the reservations the container
// manager subtracts for allocatable (GetNodeAllocatableReservation): capacity is cpu (cores),
// memory (MemTotal), pods (maxPods, or podsPerCore × cores when lower) and ephemeral-storage (the
// root directory's file system, with local storage capacity isolation); allocatable is capacity
// minus systemReserved, platReserved and the hard eviction thresholds for memory.available and
// nodefs.available, never below zero. Other capacity entries (extended resources someone else
// advertised) are kept, as upstream keeps them.
import {
  addQuantity, formatQuantity, milliQuantityOf, parseQuantity, quantityOf, quantityValue, subtractQuantity, type Quantity,
} from '../../core/api/quantity.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import type { Node } from '../../core/nodes/node-object.js';
import type { MachineInfo } from './machine.js';

/** The eviction signals that reserve capacity, and the resource each reserves. */
const EVICTION_RESERVES: Record<string, string> = { 'memory.available': 'memory', 'nodefs.available': 'ephemeral-storage' };

export function machineCapacity(machine: MachineInfo, config: Readonly<NodeAgentConfiguration>): Record<string, Quantity> {
  const pods = config.podsPerCore > 0 ? Math.min(machine.numCores * config.podsPerCore, config.maxPods) : config.maxPods;
  const capacity: Record<string, Quantity> = {
    cpu: milliQuantityOf(machine.numCores * 1000, 'DecimalSI'),
    memory: quantityOf(machine.memoryCapacity, 'BinarySI'),
    pods: quantityOf(pods, 'DecimalSI'),
  };
  if (config.localStorageCapacityIsolation && machine.rootfsCapacity !== undefined) capacity['ephemeral-storage'] = quantityOf(machine.rootfsCapacity, 'BinarySI');
  return capacity;
}

/** An eviction threshold: a quantity, or a percentage of the capacity (float32, as upstream parses it). */
function thresholdQuantity(value: string, capacity: Quantity): Quantity {
  if (value.endsWith('%')) {
    const percentage = Math.fround(Math.fround(Number.parseFloat(value.slice(0, -1))) / 100);
    return quantityOf(BigInt(Math.trunc(Number(quantityValue(capacity)) * percentage)), 'BinarySI');
  }
  return parseQuantity(value);
}

/** GetNodeAllocatableReservation: per resource of the capacity, the reserved amount (absent when zero). */
export function allocatableReservation(capacity: Record<string, Quantity>, config: Readonly<NodeAgentConfiguration>): Record<string, Quantity> {
  const eviction: Record<string, Quantity> = {};
  for (const [signal, resource] of Object.entries(EVICTION_RESERVES)) {
    const value = config.evictionHard?.[signal];
    const cap = capacity[resource];
    if (value !== undefined && cap !== undefined) eviction[resource] = thresholdQuantity(value, cap);
  }
  const out: Record<string, Quantity> = {};
  for (const name of Object.keys(capacity)) {
    let total = quantityOf(0, 'DecimalSI');
    for (const reserved of [config.systemReserved?.[name], config.platReserved?.[name]]) {
      if (reserved !== undefined) total = addQuantity(total, parseQuantity(reserved));
    }
    if (eviction[name]) total = addQuantity(total, eviction[name]);
    if (total.nanos !== 0n) out[name] = total;
  }
  return out;
}

/** Sets status.capacity, status.allocatable and the machine part of status.nodeInfo. */
export function setMachineInfo(node: Node, machine: MachineInfo, config: Readonly<NodeAgentConfiguration>): void {
  const status = (node.status ??= {});
  const computed = machineCapacity(machine, config);
  const capacity: Record<string, Quantity> = {};
  for (const [name, text] of Object.entries(status.capacity ?? {})) {
    try { capacity[name] = parseQuantity(text); } catch { /* an entry nobody can read is dropped */ }
  }
  Object.assign(capacity, computed);
  const reservation = allocatableReservation(capacity, config);
  // Extended resources no longer in capacity leave allocatable; anything else stays.
  const allocatable: Record<string, string> = Object.fromEntries(Object.entries(status.allocatable ?? {})
    .filter(([name]) => capacity[name] !== undefined || !isExtendedResourceName(name)));
  for (const [name, q] of Object.entries(capacity)) {
    let value = reservation[name] ? subtractQuantity(q, reservation[name]) : q;
    if (value.nanos < 0n) value = { nanos: 0n, format: value.format };
    allocatable[name] = formatQuantity(value);
  }
  status.capacity = Object.fromEntries(Object.entries(capacity).map(([k, q]) => [k, formatQuantity(q)]));
  status.allocatable = allocatable;
  status.nodeInfo = { ...emptyNodeInfo(), ...status.nodeInfo, machineID: machine.machineID, systemUUID: machine.systemUUID, bootID: machine.bootID };
}

/** v1helper.IsExtendedResourceName: a domain-prefixed name outside the platform namespace, not a quota `requests.` name. */
const isExtendedResourceName = (name: string): boolean => name.includes('/') && !name.includes('platform/') && !name.startsWith('requests.');

export function emptyNodeInfo(): NonNullable<NonNullable<Node['status']>['nodeInfo']> {
  return {
    machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '',
    kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '',
  };
}
