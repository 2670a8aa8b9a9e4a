// The pieces of the node's status, each as its upstream counterpart behaves: capacity and
// allocatable (reservations and hard eviction thresholds), the conditions' transitions and
// heartbeats, what counts as a change worth reporting, the strategic merge patch that reports it,
// and the --node-labels check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch } from '../../../core/api/patch/strategic-merge-patch.js';
import { defaultNodeAgentConfiguration } from '../../../core/nodeagent/defaults.js';
import type { Node } from '../../../core/nodes/node-object.js';
import { setMachineInfo } from '../../../plugins/nodeagent-node/capacity.js';
import { MEMORY_PRESSURE, setPressureCondition, setReadyCondition } from '../../../plugins/nodeagent-node/conditions.js';
import { nodeLabelsError } from '../../../plugins/nodeagent-node/node-labels-flag.js';
import { nodeStatusHasChanged } from '../../../plugins/nodeagent-node/node-status.js';
import { nodeStatusPatch } from '../../../plugins/nodeagent-node/status-patch.js';
import { nodeSchema } from '../../../plugins/nodes/schema.js';
import { createLogger, silentLogger } from '../../../core/log.js';
import { initialNode, reconcileAttachDetachAnnotation, restoreRequiredLabels, updateDefaultLabels, type NodeInputs } from '../../../plugins/nodeagent-node/initial-node.js';
import { goArch, goOs } from '../../../plugins/nodeagent-node/machine.js';
import { parseIp } from '../../../core/go-ip.js';
import { NO_PRESSURE } from '../../../plugins/nodeagent-node/node-status.js';
import { fakeMachine, fakeNetwork } from './support.js';

const config = (over: Partial<ReturnType<typeof defaultNodeAgentConfiguration>> = {}) => ({ ...defaultNodeAgentConfiguration(), ...over });
const T0 = new Date('2026-03-01T10:00:00Z');
const T1 = new Date('2026-03-01T10:00:10Z');

describe('capacity and allocatable', () => {
  it('reports cores, MemTotal, maxPods and the root file system, minus the default hard eviction thresholds', () => {
    const node: Node = { metadata: {} };
    setMachineInfo(node, fakeMachine(), config());
    assert.deepEqual(node.status?.capacity, { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    // memory.available 100Mi; nodefs.available 10% of 100Gi, through float32 as upstream computes it.
    assert.deepEqual(node.status?.allocatable, { cpu: '4', memory: '8092Mi', pods: '110', 'ephemeral-storage': '96636764000' });
    assert.deepEqual([node.status?.nodeInfo?.machineID, node.status?.nodeInfo?.systemUUID, node.status?.nodeInfo?.bootID], ['machine-1', 'uuid-1', 'boot-1']);
  });
  it('subtracts systemReserved and platReserved, caps pods by podsPerCore, and never goes below zero', () => {
    const node: Node = { metadata: {} };
    setMachineInfo(node, fakeMachine(), config({
      podsPerCore: 10, systemReserved: { cpu: '500m', memory: '1Gi' }, platReserved: { cpu: '4', memory: '512Mi' },
      evictionHard: { 'memory.available': '1Gi' }, localStorageCapacityIsolation: false,
    }));
    assert.deepEqual(node.status?.capacity, { cpu: '4', memory: '8Gi', pods: '40' });
    assert.deepEqual(node.status?.allocatable, { cpu: '0', memory: '5632Mi', pods: '40' });
  });
  it('keeps extended resources someone else advertised, and drops stale extended ones from allocatable', () => {
    const node: Node = { metadata: {}, status: { capacity: { 'example.com/gpu': '2' }, allocatable: { 'example.com/gpu': '2', 'example.com/old': '1' } } };
    setMachineInfo(node, fakeMachine(), config());
    assert.equal(node.status?.capacity?.['example.com/gpu'], '2');
    assert.equal(node.status?.allocatable?.['example.com/gpu'], '2');
    assert.equal(node.status?.allocatable?.['example.com/old'], undefined);
  });
});

describe('conditions', () => {
  it('a pressure condition starts as a transition from Unknown, then only its heartbeat moves', () => {
    const node: Node = { metadata: {} };
    setPressureCondition(node, MEMORY_PRESSURE, false, T0);
    assert.deepEqual(node.status?.conditions, [{
      type: 'MemoryPressure', status: 'False', lastHeartbeatTime: '2026-03-01T10:00:00Z', reason: 'NodeAgentHasSufficientMemory',
      message: 'nodeagent has sufficient memory available', lastTransitionTime: '2026-03-01T10:00:00Z',
    }]);
    setPressureCondition(node, MEMORY_PRESSURE, false, T1);
    assert.deepEqual([node.status?.conditions?.[0]?.lastHeartbeatTime, node.status?.conditions?.[0]?.lastTransitionTime], ['2026-03-01T10:00:10Z', '2026-03-01T10:00:00Z']);
    setPressureCondition(node, MEMORY_PRESSURE, true, T1);
    assert.deepEqual([node.status?.conditions?.[0]?.reason, node.status?.conditions?.[0]?.message, node.status?.conditions?.[0]?.lastTransitionTime],
      ['NodeAgentHasInsufficientMemory', 'nodeagent has insufficient memory available', '2026-03-01T10:00:10Z']);
  });
  it('Ready needs cpu, memory, pods and (with local storage isolation) ephemeral-storage capacity', () => {
    const node: Node = { metadata: {}, status: { capacity: { cpu: '1', memory: '1Gi', pods: '110' } } };
    setReadyCondition(node, T0, true);
    assert.deepEqual(node.status?.conditions?.[0], {
      type: 'Ready', status: 'False', reason: 'NodeAgentNotReady', message: 'missing node capacity for resources: ephemeral-storage',
      lastHeartbeatTime: '2026-03-01T10:00:00Z', lastTransitionTime: '2026-03-01T10:00:00Z',
    });
    node.status!.capacity!['ephemeral-storage'] = '1Gi';
    setReadyCondition(node, T1, true);
    assert.deepEqual(node.status?.conditions?.[0], {
      type: 'Ready', status: 'True', reason: 'NodeAgentReady', message: 'nodeagent is posting ready status',
      lastHeartbeatTime: '2026-03-01T10:00:10Z', lastTransitionTime: '2026-03-01T10:00:10Z',
    });
    setReadyCondition(node, new Date('2026-03-01T10:00:20Z'), true);
    assert.equal(node.status?.conditions?.[0]?.lastTransitionTime, '2026-03-01T10:00:10Z');
  });
});

describe('what is worth reporting', () => {
  const base = (): Node => {
    const n: Node = { metadata: { name: 'n', labels: { a: '1' } }, status: { capacity: { cpu: '4' }, addresses: [{ type: 'InternalIP', address: '192.0.2.20' }] } };
    setPressureCondition(n, MEMORY_PRESSURE, false, T0);
    setReadyCondition(n, T0, false);
    return n;
  };
  it('a new heartbeat alone is not a change; anything else is', () => {
    const a = base();
    const b = structuredClone(a);
    setPressureCondition(b, MEMORY_PRESSURE, false, T1);
    setReadyCondition(b, T1, false);
    assert.equal(nodeStatusHasChanged(a.status, b.status), false);
    const c = structuredClone(b);
    c.status!.capacity!['memory'] = '1Gi';
    assert.equal(nodeStatusHasChanged(a.status, c.status), true);
    const d = structuredClone(b);
    setPressureCondition(d, MEMORY_PRESSURE, true, T1);
    assert.equal(nodeStatusHasChanged(a.status, d.status), true);
    const e = structuredClone(b);
    e.status!.conditions!.reverse();
    assert.equal(nodeStatusHasChanged(a.status, e.status), false);
    // Quantities compare by value: the server's canonical form of the same amount is no change.
    const f = structuredClone(a);
    f.status!.capacity = { cpu: '4000m' };
    assert.equal(nodeStatusHasChanged(a.status, f.status), false);
  });

  it('the patch takes the stored Node to the computed one, whatever changed', () => {
    const original = base();
    const updated = structuredClone(original);
    setPressureCondition(updated, MEMORY_PRESSURE, true, T1);
    setReadyCondition(updated, T1, false);
    updated.metadata.labels = { b: '2' };
    updated.status!.capacity = { cpu: '4', memory: '8Gi' };
    updated.status!.addresses = [{ type: 'InternalIP', address: '192.0.2.20' }, { type: 'InternalIP', address: 'fd00::20' }, { type: 'Hostname', address: 'n' }];
    updated.status!.nodeInfo = { machineID: 'm', systemUUID: '', bootID: 'b', kernelVersion: 'k', osImage: 'o', containerRuntimeVersion: '', kubeletVersion: 'v1', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' };
    const patch = nodeStatusPatch(original, updated);
    assert.deepEqual((patch['metadata'] as any).labels, { a: null, b: '2' });
    assert.deepEqual((patch['status'] as any)['$setElementOrder/conditions'], [{ type: 'MemoryPressure' }, { type: 'Ready' }]);
    assert.equal((patch['status'] as any).addresses[0].$patch, 'replace');
    assert.deepEqual(applyStrategicMergePatch(original, patch, nodeSchema), JSON.parse(JSON.stringify(updated)));
    assert.deepEqual(nodeStatusPatch(updated, structuredClone(updated)), {});
  });
});

describe('--node-labels', () => {
  const allowed = 'beta.platform/arch, beta.platform/instance-type, beta.platform/os, failure-domain.beta.platform/region, failure-domain.beta.platform/zone, node.platform/instance-type, platform/arch, platform/hostname, platform/os, topology.platform/region, topology.platform/zone';
  it('accepts the allowed set and prefixes, and keys outside the platform namespace', () => {
    assert.equal(nodeLabelsError({ 'platform/hostname': 'x', 'nodeagent.platform/a': '', 'node.platform/pool': 'p', 'sub.nodeagent.platform/k': 'v', 'example.com/team': 'a', plain: 'b' }), undefined);
  });
  it('refuses other platform-namespace keys with upstream\'s message, renamed', () => {
    assert.equal(nodeLabelsError({ 'node-role.platform/worker': '', 'platform/zone': 'a', 'x.platform/y': '' }),
      "unknown 'platform' labels specified with --node-labels: [node-role.platform/worker platform/zone x.platform/y]\n" +
      `--node-labels in the 'platform' namespace must begin with an allowed prefix (node.platform, nodeagent.platform) or be in the specifically allowed set (${allowed})`);
  });
  it('refuses bad label syntax, naming the key or the value', () => {
    assert.equal(nodeLabelsError({ 'a b': 'ok', good: '-bad-' }),
      "invalid node labels: 'a b' - name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); " +
      "'-bad-' - a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  });
});

describe('the initial Node', () => {
  const inputs = (over: Partial<NodeInputs> = {}): NodeInputs => ({
    nodeName: 'edge-9', hostname: 'edge-9', nodeLabels: {}, nodeIps: [parseIp('192.0.2.20')!], externalCloudProvider: false, net: fakeNetwork(),
    config: config(), version: 'v0.1.0', machine: async () => fakeMachine(), pressure: NO_PRESSURE, now: () => T0, logger: silentLogger, ...over,
  });

  it('with --cloud-provider=external: the uninitialized taint after --register-with-taints, and the provided IP', async () => {
    const node = await initialNode(inputs({ externalCloudProvider: true, config: config({ registerWithTaints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] }) }));
    assert.deepEqual(node.spec?.taints, [{ key: 'k', value: 'v', effect: 'NoExecute' }, { key: 'node.cloudprovider.platform/uninitialized', value: 'true', effect: 'NoSchedule' }]);
    assert.equal(node.metadata.annotations?.['alpha.platform/provided-node-ip'], '192.0.2.20');
  });

  it('--node-labels override the defaults (logged at info, as klog.InfoS); no attach-detach annotation when the controller does not attach', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const node = await initialNode(inputs({ nodeLabels: { 'platform/hostname': 'alias' }, logger, config: config({ enableControllerAttachDetach: false }) }));
    assert.equal(node.metadata.labels?.['platform/hostname'], 'alias');
    const overwrite = lines.filter((l) => l.includes('will overwrite'));
    assert.equal(overwrite.length, 1, lines.join('\n'));
    assert.match(overwrite[0]!, /^I.* the node label will overwrite default setting labelKey="platform\/hostname" labelValue="alias" default="edge-9"$/);
    assert.equal(node.metadata.annotations, undefined);
    assert.deepEqual(node.spec, {});
  });

  it('reconciles only the labels it owns, and the annotation, on an existing Node, logging the annotation change', () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const initial: Node = { metadata: { labels: { 'platform/hostname': 'h', 'platform/os': 'linux', mine: 'x' }, annotations: { 'volumes.platform/controller-managed-attach-detach': 'true' } } };
    const existing: Node = { metadata: { labels: { 'platform/hostname': 'h', 'platform/os': 'old', other: 'y' } } };
    assert.equal(updateDefaultLabels(initial, existing), true);
    assert.equal(reconcileAttachDetachAnnotation(initial, existing, logger), true);
    assert.deepEqual(existing.metadata, { labels: { 'platform/hostname': 'h', 'platform/os': 'linux', other: 'y' }, annotations: { 'volumes.platform/controller-managed-attach-detach': 'true' } });
    assert.equal(updateDefaultLabels(initial, existing), false);
    assert.equal(reconcileAttachDetachAnnotation(initial, existing, logger), false);
    assert.equal(reconcileAttachDetachAnnotation({ metadata: {} }, existing, logger), true);
    assert.deepEqual(existing.metadata.annotations, {});
    assert.deepEqual(lines.map((l) => l.replace(/^(\w)\S* \S+ [^\]]*\] /, '$1 ')), [
      'I Controller attach-detach setting changed to true; updating existing Node',
      'I Controller attach-detach setting changed to false; updating existing Node',
    ]);
  });

  it('updateNode puts back platform/os and platform/arch when missing or different, and nothing else', () => {
    const os = goOs(process.platform);
    const arch = goArch(process.arch);
    const cases: { name: string; labels: Record<string, string> | undefined; restored: boolean; want: Record<string, string> }[] = [
      { name: 'no labels at all', labels: undefined, restored: true, want: { 'platform/os': os, 'platform/arch': arch } },
      { name: 'os removed', labels: { 'platform/arch': arch, team: 'a' }, restored: true, want: { 'platform/arch': arch, team: 'a', 'platform/os': os } },
      { name: 'arch changed', labels: { 'platform/os': os, 'platform/arch': 'plan9' }, restored: true, want: { 'platform/os': os, 'platform/arch': arch } },
      { name: 'both right; beta labels are not required', labels: { 'platform/os': os, 'platform/arch': arch }, restored: false, want: { 'platform/os': os, 'platform/arch': arch } },
    ];
    for (const c of cases) {
      const node: Node = { metadata: c.labels ? { labels: { ...c.labels } } : {} };
      assert.equal(restoreRequiredLabels(node), c.restored, c.name);
      assert.deepEqual(node.metadata.labels, c.want, c.name);
    }
  });
});
