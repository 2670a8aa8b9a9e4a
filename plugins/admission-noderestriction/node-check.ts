// NodeRestriction's Node and Lease rules (admitNode, admitLease upstream). A node writes only its
// own Node and its own Lease in plat-node-lease. On its Node it may not set the removed
// configSource, change its taints or owner references after creation (that would let it steer
// workloads or garbage collection), nor set labels in the reserved `platform` namespace beyond
// the ones node agents own (core/nodes/node-labels.ts) or any node-restriction.platform label.
import { isDeepStrictEqual } from 'node:util';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { ApiObject } from '../../core/api/meta.js';
import { isLabelForbiddenToNodes } from '../../core/nodes/node-labels.js';
import { NODE_LEASE_NAMESPACE, type Node } from '../../core/nodes/node-object.js';

export const NODE_RESOURCE = 'nodes';
export const LEASE_GROUP = 'coordination.platform';
export const LEASE_RESOURCE = 'leases';

/** Keys whose value differs between the two label maps (added, removed or changed), sorted. */
function modifiedLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): string[] {
  const x = a ?? {};
  const y = b ?? {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].filter((k) => !Object.hasOwn(x, k) || !Object.hasOwn(y, k) || x[k] !== y[k]).sort();
}

/** equality.Semantic: an empty list is the same as no list. */
const orEmpty = <T>(v: readonly T[] | null | undefined): readonly T[] => v ?? [];
const sameList = <T>(a: readonly T[] | null | undefined, b: readonly T[] | null | undefined): boolean => isDeepStrictEqual(orEmpty(a), orEmpty(b));

export function admitNode(req: AdmissionRequest, nodeName: string): void {
  const requested = req.name || (req.operation === 'CREATE' ? req.object?.metadata?.name ?? '' : '');
  if (requested !== nodeName) throw new Error(`node "${nodeName}" is not allowed to modify node "${requested}"`);
  const node = req.object as Node | undefined;
  if (req.operation === 'CREATE' && node) {
    if (node.spec?.configSource) throw new Error(`node "${nodeName}" is not allowed to create pods with a non-nil configSource`);
    const forbidden = modifiedLabels(node.metadata.labels, undefined).filter(isLabelForbiddenToNodes);
    if (forbidden.length) throw new Error(`node "${nodeName}" is not allowed to set the following labels: ${forbidden.join(', ')}`);
  }
  if (req.operation === 'UPDATE' && node) {
    const old = (req.oldObject ?? { metadata: {} }) as Node;
    if (node.spec?.configSource && !isDeepStrictEqual(node.spec.configSource, old.spec?.configSource)) {
      throw new Error(`node "${nodeName}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!sameList(node.spec?.taints, old.spec?.taints)) throw new Error(`node "${nodeName}" is not allowed to modify taints`);
    if (!sameList(node.metadata.ownerReferences, old.metadata.ownerReferences)) throw new Error(`node "${nodeName}" is not allowed to modify ownerReferences`);
    const forbidden = modifiedLabels(node.metadata.labels, old.metadata.labels).filter(isLabelForbiddenToNodes);
    if (forbidden.length) throw new Error(`is not allowed to modify labels: ${forbidden.join(', ')}`);
  }
}

export function admitLease(req: AdmissionRequest, nodeName: string): void {
  if (req.namespace !== NODE_LEASE_NAMESPACE) throw new Error(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  const name = req.operation === 'CREATE' ? (req.object as ApiObject | undefined)?.metadata?.name ?? '' : req.name;
  if (name !== nodeName) throw new Error('can only access node lease with the same name as the requesting node');
}
