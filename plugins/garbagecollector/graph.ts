// Upstream's graph.go: one node per object uid, knowing its owners (its ownerReferences) and its
// dependents (the nodes whose ownerReferences name it). A node made for an owner that no informer
// has shown yet is "virtual": its coordinates are what a dependent said of it, to be checked
// against the API server. Only the graph builder changes the graph; plat's single thread makes
// upstream's locks and copy-on-write node replacement unnecessary.
import type { OwnerReference } from '../../core/api/meta.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN } from '../../core/registry/gc-finalizers.js';

/** objectReference: an owner reference's coordinates and the namespace the object lives in ('' cluster-scoped). */
export interface ObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly namespace: string;
}

/** objectReference.String(): how klog's text format prints an identity. */
export const identityText = (r: ObjectReference): string =>
  `[${r.apiVersion}/${r.kind}, namespace: ${r.namespace}, name: ${r.name}, uid: ${r.uid}]`;

export const sameIdentity = (a: ObjectReference, b: ObjectReference): boolean =>
  a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid && a.namespace === b.namespace;

/** ownerReferenceMatchesCoordinates: the reference names the same apiVersion, kind, name and uid. */
export const referenceMatches = (ref: OwnerReference, id: ObjectReference): boolean =>
  ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;

/** ownerReferenceCoordinates in a given namespace. */
export const ownerIdentity = (ref: OwnerReference, namespace: string): ObjectReference =>
  ({ apiVersion: ref.apiVersion ?? '', kind: ref.kind ?? '', name: ref.name ?? '', uid: ref.uid ?? '', namespace });

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  /** Not seen by an informer yet (a virtual node, made for an owner a dependent names). */
  virtual: boolean;
  beingDeleted = false;
  /** Being deleted with the foregroundDeletion finalizer: waits for its blocking dependents. */
  deletingDependents = false;
  constructor(public identity: ObjectReference, public owners: readonly OwnerReference[], virtual = false) {
    this.virtual = virtual;
  }

  get observed(): boolean { return !this.virtual; }

  /** blockingDependents: dependents whose reference to this node blocks its deletion. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

export const hasFinalizer = (finalizers: readonly string[] | undefined, f: string): boolean => (finalizers ?? []).includes(f);
export const hasOrphanFinalizer = (finalizers: readonly string[] | undefined): boolean => hasFinalizer(finalizers, FINALIZER_ORPHAN);
export const hasDeleteDependentsFinalizer = (finalizers: readonly string[] | undefined): boolean => hasFinalizer(finalizers, FINALIZER_DELETE_DEPENDENTS);
