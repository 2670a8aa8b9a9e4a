// Shared by the Node tests: a Node object as a node agent registers it, and the Status checks.
import assert from 'node:assert/strict';
import type { Response } from '../helpers/plat.js';

export const NODES = '/api/v1/nodes';
/**
 * For tests of the Node API itself, which write Nodes and compare them exactly: without the node
 * lifecycle controller, whose taints, beta labels and status writes (and the 409s they cause
 * to a write from an older read) would race them.
 */
export const WITHOUT_NODE_LIFECYCLE = '--controllers=-node-lifecycle-controller,*';
export const nodePath = (name: string, sub?: string): string => `${NODES}/${name}${sub ? `/${sub}` : ''}`;
export const LEASES = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases';

export function nodeObject(name: string, over: { labels?: Record<string, string>; spec?: any; status?: any } = {}): any {
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: over.labels ?? { 'platform/hostname': name, 'platform/os': 'linux' } },
    spec: over.spec ?? {},
    status: over.status ?? {
      capacity: { cpu: '2', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '2', memory: '8092Mi', pods: '110' },
      addresses: [{ type: 'InternalIP', address: '192.0.2.10' }, { type: 'Hostname', address: name }],
      conditions: [{ type: 'Ready', status: 'True', reason: 'NodeAgentReady', message: 'nodeagent is posting ready status' }],
      nodeInfo: {
        machineID: 'm', systemUUID: '', bootID: 'b', kernelVersion: '6.1.0', osImage: 'Debian GNU/Linux 12 (bookworm)', containerRuntimeVersion: '',
        kubeletVersion: 'v0.1.0', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64',
      },
    },
  };
}

export function leaseObject(name: string): any {
  return {
    apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name, namespace: 'plat-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' },
  };
}

/** 422 Invalid for a Node, with exactly these causes (field and message). */
export function assertInvalid(res: Response, name: string, causes: Array<[string, string]>): void {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.reason, 'Invalid');
  assert.deepEqual(res.json.details.causes.map((c: any) => [c.field, c.message]), causes, res.text);
  const texts = [...new Set(causes.map(([f, m]) => (f ? `${f}: ${m}` : m)))];
  assert.equal(res.json.message, `Node "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`);
}

/** admission.NewForbidden's Status for a node-restricted write. */
export function assertForbidden(res: Response, resource: string, name: string, message: string): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.json.reason, 'Forbidden');
  assert.equal(res.json.message, `${resource} "${name}" is forbidden: ${message}`);
}
