// Upstream's GraphBuilder (graph_builder.go): an informer ("monitor") per resource the garbage
// collector handles, whose events change the graph and queue what may have become garbage:
// - a new object joins its owners' dependents; an owner not in the graph gets a virtual node, queued
//   to attemptToDelete so that the collector asks the API server whether it exists;
// - an object whose deletion starts with `orphan` goes to attemptToOrphan, one with
//   `foregroundDeletion` (and its dependents) to attemptToDelete;
// - a deleted object's dependents go to attemptToDelete (its identity is remembered as absent), and
//   its owners that wait for their dependents' deletion too;
// - a reference removed or made non-blocking may free an owner waiting in the foreground.
// Events are applied as they come (one thread: upstream's graphChanges queue has nothing to order).
import type { EventRecorder } from '../../core/client/events/event-broadcaster.js';
import { formatGroupVersion } from '../../core/api/group-version.js';
import type { ApiObject, OwnerReference } from '../../core/api/meta.js';
import type { GroupVersionResource } from '../../core/client/discovery.js';
import type { Informer } from '../../core/controller/informer.js';
import type { SharedInformers } from '../../core/controller/shared-informers.js';
import type { WorkQueue } from '../../core/controller/workqueue.js';
import type { Logger } from '../../core/log.js';
import { LruExpireCache } from '../../core/lru-expire-cache.js';
import {
  GraphNode, hasDeleteDependentsFinalizer, hasFinalizer, identityText, ownerIdentity, referenceMatches, sameIdentity, type ObjectReference,
} from './graph.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN } from '../../core/registry/gc-finalizers.js';

export type EventType = 'add' | 'update' | 'delete';

export interface GraphEvent {
  readonly type: EventType;
  readonly obj: ApiObject;
  readonly oldObj?: ApiObject | undefined;
  /** The resource's apiVersion and kind (the informer's; a partial object's are meta.k8s.io's). */
  readonly apiVersion: string;
  readonly kind: string;
  /** Made by the collector after the API server said the object is not there. */
  readonly virtual?: boolean;
}

/** NewReferenceCache(500). */
const ABSENT_OWNER_CACHE_SIZE = 500;

export const gvrKey = (r: Pick<GroupVersionResource, 'group' | 'version' | 'resource'>): string => `${r.group}/${r.version}, Resource=${r.resource}`;
const absentKey = (r: ObjectReference): string => JSON.stringify([r.apiVersion, r.kind, r.name, r.uid, r.namespace]);

function beingDeleted(obj: ApiObject | undefined): boolean { return !!obj?.metadata?.deletionTimestamp; }

/** deletionStartsWithFinalizer: being deleted with `f` now, and was not (or had not `f`) before. */
function deletionStartsWithFinalizer(oldObj: ApiObject | undefined, obj: ApiObject, f: string): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj.metadata.finalizers, f)) return false;
  return !oldObj || !beingDeleted(oldObj) || !hasFinalizer(oldObj.metadata.finalizers, f);
}

/** referencesDiffs: by uid, the references added, removed, and changed in any field. */
function referencesDiffs(old: readonly OwnerReference[], next: readonly OwnerReference[]) {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { oldRef: OwnerReference; newRef: OwnerReference }[] = [];
  for (const r of next) {
    const before = oldByUid.get(r.uid);
    if (!before) added.push(r);
    else {
      if (JSON.stringify(before) !== JSON.stringify(r)) changed.push({ oldRef: before, newRef: r });
      oldByUid.delete(r.uid);
    }
  }
  return { added, removed: [...oldByUid.values()], changed };
}

/**
 * partitionDependents: the dependents whose reference to `owner.uid` matches its coordinates, and
 * those whose does not (or that live in another namespace than a namespaced owner).
 */
function partitionDependents(dependents: Iterable<GraphNode>, owner: ObjectReference): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (owner.namespace && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (referenceMatches(ref, owner)) match = true; else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/**
 * getAlternateOwnerIdentity, simplified: the first (in text order) other identity the dependents
 * give the absent owner's uid; a cluster-scoped reading has no namespace.
 */
function alternateIdentity(dependents: readonly GraphNode[], absent: ObjectReference): ObjectReference | undefined {
  const seen = new Map<string, ObjectReference>();
  for (const dep of dependents) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      for (const id of [ownerIdentity(ref, dep.identity.namespace), ownerIdentity(ref, '')]) {
        if (!sameIdentity(id, absent)) seen.set(identityText(id), id);
      }
    }
  }
  const first = [...seen.keys()].sort()[0];
  return first === undefined ? undefined : seen.get(first);
}

export interface GraphBuilderOptions {
  readonly informers: SharedInformers;
  readonly logger: Logger;
  readonly attemptToDelete: WorkQueue<string>;
  readonly attemptToOrphan: WorkQueue<string>;
  /** The collector's recorder (source `garbage-collector-controller`). */
  readonly recorder: EventRecorder;
}

interface Monitor {
  readonly informer: Informer<ApiObject>;
  /** Discovery still lists the resource: its events change the graph. */
  active: boolean;
  event(type: EventType, obj: ApiObject, oldObj?: ApiObject): void;
}

export class GraphBuilder {
  readonly uidToNode = new Map<string, GraphNode>();
  readonly #absentOwners = new LruExpireCache<true>(ABSENT_OWNER_CACHE_SIZE);
  readonly #monitors = new Map<string, Monitor>();
  readonly #log: Logger;
  constructor(private readonly o: GraphBuilderOptions) {
    this.#log = o.logger;
  }

  isAbsent(r: ObjectReference): boolean { return this.#absentOwners.get(absentKey(r)) !== undefined; }
  markAbsent(r: ObjectReference): void { this.#absentOwners.set(absentKey(r), true, Infinity); }

  /**
   * syncMonitors and startMonitors: the shared informer of each resource (upstream's
   * ObjectOrMetadataInformerFactory gives built-in types their shared typed informers); one that
   * discovery no longer lists is no longer followed, and one that comes back is read afresh.
   */
  syncMonitors(resources: readonly GroupVersionResource[]): void {
    const wanted = new Map(resources.map((r) => [gvrKey(r), r]));
    for (const [key, m] of this.#monitors) if (!wanted.has(key)) m.active = false;
    for (const [key, r] of wanted) {
      const known = this.#monitors.get(key);
      if (known?.active) continue;
      if (known) {
        known.active = true;
        for (const obj of known.informer.list()) known.event('add', obj);
        continue;
      }
      const apiVersion = formatGroupVersion(r);
      const informer = this.o.informers.for<ApiObject>({ group: r.group, version: r.version, plural: r.resource, kind: r.kind });
      const monitor: Monitor = {
        informer, active: true,
        event: (type, obj, oldObj) => { if (monitor.active) this.processGraphChange({ type, obj, oldObj, apiVersion, kind: r.kind }); },
      };
      this.#monitors.set(key, monitor);
      informer.addHandlers({
        add: (obj) => monitor.event('add', obj),
        update: (oldObj, obj) => monitor.event('update', obj, oldObj),
        delete: (obj) => monitor.event('delete', obj),
      });
    }
  }

  #active(): Monitor[] { return [...this.#monitors.values()].filter((m) => m.active); }

  /** IsSynced: every monitor has listed once. */
  async waitForSync(signal: AbortSignal): Promise<void> {
    await Promise.all(this.#active().map((m) => m.informer.waitForSync(signal)));
  }

  isSynced(): boolean { return this.#active().every((m) => m.informer.hasSynced); }

  /** enqueueVirtualDeleteEvent: the API server says the object is not there. */
  enqueueVirtualDeleteEvent(id: ObjectReference): void {
    const obj: ApiObject = { metadata: { name: id.name, uid: id.uid, ...(id.namespace ? { namespace: id.namespace } : {}) } };
    this.processGraphChange({ type: 'delete', obj, apiVersion: id.apiVersion, kind: id.kind, virtual: true });
  }

  /** processGraphChanges for one event. */
  processGraphChange(event: GraphEvent): void {
    const m = event.obj.metadata;
    const uid = m.uid ?? '';
    const observedIdentity: ObjectReference = { apiVersion: event.apiVersion, kind: event.kind, name: m.name ?? '', uid, namespace: m.namespace ?? '' };
    this.#log.v(5).info('GraphBuilder process object', {
      apiVersion: event.apiVersion, kind: event.kind, object: m.namespace ? `${m.namespace}/${m.name}` : m.name ?? '', uid, eventType: event.type, virtual: !!event.virtual,
    });
    let existing = this.uidToNode.get(uid);
    if (existing && !event.virtual && existing.virtual) {
      if (!sameIdentity(observedIdentity, existing.identity)) {
        // The dependents that named this owner otherwise may be wrong: checked again.
        for (const dep of partitionDependents(existing.dependents, observedIdentity).nonmatching) {
          if (observedIdentity.namespace && dep.identity.namespace !== observedIdentity.namespace) {
            this.#log.v(2).info('item references an owner but does not match namespaces', { item: identityText(dep.identity), owner: identityText(observedIdentity) });
            this.#reportInvalidNamespaceOwnerRef(dep, uid);
          }
          this.o.attemptToDelete.add(dep.identity.uid);
        }
        this.#log.v(2).info('replacing virtual item with observed item', { virtual: identityText(existing.identity), observed: identityText(observedIdentity) });
        existing.identity = observedIdentity;
      }
      existing.virtual = false;
    }
    if (event.type !== 'delete' && !existing) {
      const node = new GraphNode(observedIdentity, m.ownerReferences ?? []);
      node.beingDeleted = beingDeleted(event.obj);
      node.deletingDependents = node.beingDeleted && hasDeleteDependentsFinalizer(m.finalizers);
      this.uidToNode.set(uid, node);
      this.#addDependentToOwners(node, node.owners);
      this.#processTransitions(event.oldObj, event.obj, node);
    } else if (event.type !== 'delete' && existing) {
      if (!event.virtual && (existing.identity.apiVersion !== event.apiVersion || existing.identity.kind !== event.kind)) {
        existing.identity = { ...existing.identity, apiVersion: event.apiVersion, kind: event.kind };
      }
      const { added, removed, changed } = referencesDiffs(existing.owners, m.ownerReferences ?? []);
      if (added.length || removed.length || changed.length) {
        this.#addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = m.ownerReferences ?? [];
        this.#addDependentToOwners(existing, added);
        for (const r of removed) this.uidToNode.get(r.uid)?.dependents.delete(existing);
      }
      if (beingDeleted(event.obj)) existing.beingDeleted = true;
      this.#processTransitions(event.oldObj, event.obj, existing);
    } else if (event.type === 'delete') {
      if (!existing) {
        this.#log.v(5).info("item doesn't exist in the graph, this shouldn't happen", { item: uid });
        return;
      }
      this.#processDelete(event, existing, observedIdentity);
    }
  }

  #processDelete(event: GraphEvent, existing: GraphNode, deletedIdentity: ObjectReference): void {
    if (event.virtual) {
      // A virtual delete names the coordinates the collector looked up: a node that dependents
      // (or an informer) know by others stays, and only the dependents that named these are checked.
      const { matching, nonmatching } = partitionDependents(existing.dependents, deletedIdentity);
      const stays = existing.virtual ? nonmatching.length > 0 : !sameIdentity(existing.identity, deletedIdentity);
      if (stays) {
        if (matching.length) {
          this.markAbsent(deletedIdentity);
          for (const dep of matching) this.o.attemptToDelete.add(dep.identity.uid);
        }
        // getAlternateOwnerIdentity: a virtual node whose coordinates proved absent takes those
        // another dependent names, to be checked in turn.
        const alternate = existing.virtual && sameIdentity(existing.identity, deletedIdentity) ? alternateIdentity(nonmatching, deletedIdentity) : undefined;
        if (alternate) {
          existing.identity = alternate;
          this.o.attemptToDelete.addRateLimited(existing.identity.uid);
        }
        return;
      }
    }
    this.#removeNode(existing);
    if (existing.dependents.size) this.markAbsent(deletedIdentity);
    for (const dep of existing.dependents) this.o.attemptToDelete.add(dep.identity.uid);
    for (const owner of existing.owners) {
      const ownerNode = this.uidToNode.get(owner.uid);
      // Lets the owner's foreground deletion see whether its last dependent went.
      if (ownerNode?.deletingDependents) this.o.attemptToDelete.add(ownerNode.identity.uid);
    }
  }

  /** removeNode: out of the graph and of its owners' dependents. */
  #removeNode(n: GraphNode): void {
    this.uidToNode.delete(n.identity.uid);
    for (const o of n.owners) this.uidToNode.get(o.uid)?.dependents.delete(n);
  }

  /**
   * addDependentToOwners: an owner the graph lacks gets a virtual node (in the dependent's
   * namespace: a namespaced owner can only be there), queued so that the collector checks it; a
   * dependent whose reference disagrees with an owner seen by an informer is queued for a check.
   */
  #addDependentToOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const owner of owners) {
      let ownerNode = this.uidToNode.get(owner.uid);
      if (!ownerNode) {
        ownerNode = new GraphNode(ownerIdentity(owner, n.identity.namespace), [], true);
        this.#log.v(5).info('add virtual item', { identity: identityText(ownerNode.identity) });
        this.uidToNode.set(owner.uid, ownerNode);
        ownerNode.dependents.add(n);
        this.o.attemptToDelete.add(owner.uid);
        continue;
      }
      ownerNode.dependents.add(n);
      if (potentiallyInvalid) continue;
      const ownerNamespaced = ownerNode.identity.namespace !== '';
      if (ownerNamespaced && ownerNode.identity.namespace !== n.identity.namespace) {
        if (ownerNode.observed) {
          this.#log.v(2).info('item references an owner but does not match namespaces', { item: identityText(n.identity), owner: identityText(ownerNode.identity) });
          this.#reportInvalidNamespaceOwnerRef(n, owner.uid);
        }
        potentiallyInvalid = true;
      } else if (!referenceMatches(owner, ownerNode.identity)) {
        if (ownerNode.observed) {
          this.#log.v(2).info('item references an owner with coordinates that do not match the observed identity', { item: identityText(n.identity), owner: identityText(ownerNode.identity) });
        }
        potentiallyInvalid = true;
      } else if (!ownerNamespaced && ownerNode.identity.namespace !== n.identity.namespace && ownerNode.virtual) {
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid) this.o.attemptToDelete.add(n.identity.uid);
  }

  /** reportInvalidNamespaceOwnerRef: a Warning OwnerRefInvalidNamespace Event on the dependent. */
  #reportInvalidNamespaceOwnerRef(n: GraphNode, ownerUid: string): void {
    const ref = n.owners.find((o) => o.uid === ownerUid);
    if (!ref) return;
    const invalid = ownerIdentity(ref, n.identity.namespace);
    const { kind, apiVersion, namespace, name, uid } = n.identity;
    this.o.recorder.event({ kind, apiVersion, ...(namespace ? { namespace } : {}), name, uid }, 'Warning', 'OwnerRefInvalidNamespace',
      `ownerRef ${identityText(invalid)} does not exist in namespace "${namespace}"`);
  }

  /** addUnblockedOwnersToDeleteQueue: an owner waiting in the foreground may be free now. */
  #addUnblockedOwnersToDeleteQueue(removed: readonly OwnerReference[], changed: readonly { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    const queue = (uid: string) => {
      if (this.uidToNode.has(uid)) this.o.attemptToDelete.add(uid);
      else this.#log.v(5).info('cannot find uid in uidToNode', { uid });
    };
    for (const r of removed) if (r.blockOwnerDeletion === true) queue(r.uid);
    for (const c of changed) if (c.oldRef.blockOwnerDeletion === true && c.newRef.blockOwnerDeletion !== true) queue(c.newRef.uid);
  }

  /** processTransitions. */
  #processTransitions(oldObj: ApiObject | undefined, obj: ApiObject, n: GraphNode): void {
    if (deletionStartsWithFinalizer(oldObj, obj, FINALIZER_ORPHAN)) {
      this.#log.v(5).info('add item to attemptToOrphan', { item: identityText(n.identity) });
      this.o.attemptToOrphan.add(n.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(oldObj, obj, FINALIZER_DELETE_DEPENDENTS)) {
      this.#log.v(2).info("add item to attemptToDelete, because it's waiting for its dependents to be deleted", { item: identityText(n.identity) });
      n.deletingDependents = true;
      for (const dep of n.dependents) this.o.attemptToDelete.add(dep.identity.uid);
      this.o.attemptToDelete.add(n.identity.uid);
    }
  }
}
