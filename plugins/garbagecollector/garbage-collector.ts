// Upstream's GarbageCollector (garbagecollector.go): workers of two queues the graph builder fills.
// attemptToDelete: an object whose owners are all gone (each checked with a live GET: absent, or
// there with another uid) is deleted in the background (foreground or orphan when its own
// finalizers say so); owners waiting for their dependents (foreground) get their dependents
// deleted in the foreground; owners still there keep the object, whose references to gone or
// waiting owners are taken off; an owner in foreground deletion loses its `foregroundDeletion`
// once no dependent blocks it. attemptToOrphan: an owner deleted with `orphan` has its references
// taken off every dependent, then loses the finalizer.
import type { ApiObject, OwnerReference } from '../../core/api/meta.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { isApiError } from '../../core/client/rest-client.js';
import type { WorkQueue } from '../../core/controller/workqueue.js';
import type { Logger } from '../../core/log.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN } from '../../core/registry/gc-finalizers.js';
import { hasDeleteDependentsFinalizer, hasOrphanFinalizer, identityText, ownerIdentity, type GraphNode } from './graph.js';
import type { GraphBuilder } from './graph-builder.js';
import { RestMappingError, type Operations } from './operations.js';

/** enqueuedVirtualDeleteEventErr: the graph has been told; nothing to retry. */
const ENQUEUED_VIRTUAL_DELETE = new Error('enqueued virtual delete event');
/** namespacedOwnerOfClusterScopedObjectErr: never resolves on a retry. */
const NAMESPACED_OWNER_OF_CLUSTER_SCOPED = new Error('cluster-scoped objects cannot refer to namespaced owners');

export type Action = 'forget' | 'requeue';

/** klog's text of a list of references: each as its coordinates. */
const refsText = (refs: readonly OwnerReference[]): string => `[${refs.map((r) => `${r.apiVersion}/${r.kind} ${r.name} ${r.uid}`).join(', ')}]`;

export class GarbageCollector {
  constructor(
    private readonly graph: GraphBuilder,
    private readonly ops: Operations,
    private readonly attemptToDelete: WorkQueue<string>,
    private readonly log: Logger,
  ) {}

  /** attemptToDeleteWorker: what becomes of the queued uid. */
  async attemptToDeleteWorker(uid: string): Promise<Action> {
    const n = this.graph.uidToNode.get(uid);
    if (!n) {
      this.log.v(5).info('item no longer in the graph, skipping attemptToDeleteItem', { item: uid });
      return 'forget';
    }
    try {
      await this.attemptToDeleteItem(n);
    } catch (e) {
      if (e === ENQUEUED_VIRTUAL_DELETE || e === NAMESPACED_OWNER_OF_CLUSTER_SCOPED) return 'forget';
      if (e instanceof RestMappingError) this.log.error('error syncing item', { err: e.message, item: identityText(n.identity) });
      else this.log.error('Unhandled Error', { err: `error syncing item ${identityText(n.identity)}: ${goClientErrorText(e)}` });
      return 'requeue';
    }
    if (n.virtual) {
      // Until an informer shows it (or the server says it is gone), a virtual node is asked about again.
      this.log.v(5).info("item hasn't been observed via informer yet", { item: identityText(n.identity) });
      return 'requeue';
    }
    return 'forget';
  }

  /** isDangling: whether the owner `ref` names is absent, and, when it is there, its metadata. */
  async #isDangling(ref: OwnerReference, item: GraphNode): Promise<{ dangling: boolean; owner?: ApiObject }> {
    const clusterKey = ownerIdentity(ref, '');
    if (this.graph.isAbsent(clusterKey)) {
      this.log.v(5).info("according to the absentOwnerCache, item's owner does not exist", { item: identityText(item.identity), owner: refsText([ref]) });
      return { dangling: true };
    }
    const namespacedKey = ownerIdentity(ref, item.identity.namespace);
    if (this.graph.isAbsent(namespacedKey)) {
      this.log.v(5).info("according to the absentOwnerCache, item's owner does not exist in namespace", { item: identityText(item.identity), owner: refsText([ref]) });
      return { dangling: true };
    }
    const { namespaced } = this.ops.apiResource(ref.apiVersion, ref.kind);
    const key = namespaced ? namespacedKey : clusterKey;
    if (!item.identity.namespace && namespaced) {
      this.log.v(2).info('item is cluster-scoped, but refers to a namespaced owner', { item: identityText(item.identity), owner: refsText([ref]) });
      throw NAMESPACED_OWNER_OF_CLUSTER_SCOPED;
    }
    let owner: ApiObject;
    try {
      owner = await this.ops.getObject({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: item.identity.namespace, name: ref.name });
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw e;
      this.graph.markAbsent(key);
      this.log.v(5).info("item's owner is not found", { item: identityText(item.identity), owner: refsText([ref]) });
      return { dangling: true };
    }
    if (owner.metadata.uid !== ref.uid) {
      this.log.v(5).info("item's owner is not found, UID mismatch", { item: identityText(item.identity), owner: refsText([ref]) });
      this.graph.markAbsent(key);
      return { dangling: true };
    }
    return { dangling: false, owner };
  }

  /** classifyReferences: solid (there), dangling (gone), waiting (there, deleting its dependents in the foreground). */
  async #classify(item: GraphNode, refs: readonly OwnerReference[]) {
    const solid: OwnerReference[] = [], dangling: OwnerReference[] = [], waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const { dangling: gone, owner } = await this.#isDangling(ref, item);
      if (gone) dangling.push(ref);
      else if (owner?.metadata.deletionTimestamp && hasDeleteDependentsFinalizer(owner.metadata.finalizers)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /** attemptToDeleteItem. */
  async attemptToDeleteItem(item: GraphNode): Promise<void> {
    const id = item.identity;
    this.log.v(2).info('Processing item', { item: identityText(id), virtual: item.virtual });
    // Being deleted is a one-way trip: its dependents are seen to when it is gone.
    if (item.beingDeleted && !item.deletingDependents) {
      this.log.v(5).info('processing item returned at once, because its DeletionTimestamp is non-nil', { item: identityText(id) });
      return;
    }
    let latest: ApiObject;
    try {
      latest = await this.ops.getObject(id);
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw e;
      this.log.v(5).info('item not found, generating a virtual delete event', { item: identityText(id) });
      this.graph.enqueueVirtualDeleteEvent(id);
      throw ENQUEUED_VIRTUAL_DELETE;
    }
    if (latest.metadata.uid !== id.uid) {
      this.log.v(5).info("UID doesn't match, item not found, generating a virtual delete event", { item: identityText(id) });
      this.graph.enqueueVirtualDeleteEvent(id);
      throw ENQUEUED_VIRTUAL_DELETE;
    }
    if (item.deletingDependents) return this.#processDeletingDependentsItem(item);
    const refs = latest.metadata.ownerReferences ?? [];
    if (!refs.length) {
      this.log.v(2).info("item doesn't have an owner, continue on next item", { item: identityText(id) });
      return;
    }
    const { solid, dangling, waiting } = await this.#classify(item, refs);
    this.log.v(5).info("classify item's references", { item: identityText(id), solid: refsText(solid), dangling: refsText(dangling), waitingForDependentsDeletion: refsText(waiting) });
    if (solid.length) {
      this.log.v(2).info('item has at least one existing owner, will not garbage collect', { item: identityText(id), owner: refsText(solid) });
      if (!dangling.length && !waiting.length) return;
      this.log.v(2).info('remove dangling references and waiting references for item', { item: identityText(id), dangling: refsText(dangling), waitingForDependentsDeletion: refsText(waiting) });
      // A waiting owner would otherwise wait for this item for ever.
      await this.ops.deleteOwnerRefs(item, [...dangling, ...waiting].map((r) => r.uid));
      return;
    }
    let policy: string;
    if (waiting.length && item.dependents.size) {
      const deletingDependent = [...item.dependents].find((d) => d.deletingDependents);
      if (deletingDependent) {
        this.log.v(2).info('processing item, some of its owners and its dependent have FinalizerDeletingDependents, to prevent potential cycle, its ownerReferences are going to be modified to be non-blocking, then the item is going to be deleted with Foreground', { item: identityText(id), dependent: identityText(deletingDependent.identity) });
        await this.ops.unblockOwnerReferences(item);
      }
      this.log.v(2).info('at least one owner of item has FinalizerDeletingDependents, and the item itself has dependents, so it is going to be deleted in Foreground', { item: identityText(id) });
      policy = 'Foreground';
    } else {
      // No owner is left, and none waits for it: its own finalizers say how, background otherwise.
      policy = hasOrphanFinalizer(latest.metadata.finalizers) ? 'Orphan' : hasDeleteDependentsFinalizer(latest.metadata.finalizers) ? 'Foreground' : 'Background';
      this.log.v(2).info('Deleting item', { item: identityText(id), propagationPolicy: policy });
    }
    try {
      await this.ops.deleteObject(id, latest.metadata.resourceVersion ?? '', latest.metadata.ownerReferences, policy);
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw e;
      this.graph.enqueueVirtualDeleteEvent(id);
      throw ENQUEUED_VIRTUAL_DELETE;
    }
  }

  /** processDeletingDependentsItem: done waiting when no dependent blocks it, else its blocking dependents are deleted. */
  async #processDeletingDependentsItem(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (!blocking.length) {
      this.log.v(2).info('remove DeleteDependents finalizer for item', { item: identityText(item.identity) });
      await this.ops.removeFinalizer(item, FINALIZER_DELETE_DEPENDENTS);
      return;
    }
    for (const dep of blocking) {
      if (dep.deletingDependents) continue;
      this.log.v(2).info('adding dependent to attemptToDelete, because its owner is deletingDependents', { item: identityText(item.identity), dependent: identityText(dep.identity) });
      this.attemptToDelete.add(dep.identity.uid);
    }
  }

  /** attemptToOrphanWorker: every dependent loses its reference to the owner, then the owner its `orphan` finalizer. */
  async attemptToOrphanWorker(uid: string): Promise<Action> {
    const owner = this.graph.uidToNode.get(uid);
    if (!owner) return 'forget';
    const dependents = [...owner.dependents];
    const failed = (await Promise.all(dependents.map(async (dep) => {
      try {
        // A dependent that no longer has the reference is no error (a strategic merge patch deletes nothing).
        await this.ops.deleteOwnerRefs(dep, [owner.identity.uid]);
        return undefined;
      } catch (e) {
        return isApiError(e, 'NotFound') ? undefined : `orphaning ${identityText(dep.identity)} failed, ${goClientErrorText(e)}`;
      }
    }))).filter((x): x is string => x !== undefined);
    if (failed.length) {
      const aggregate = failed.length === 1 ? failed[0]! : `[${failed.join(', ')}]`;
      this.log.error('Unhandled Error', { err: `orphanDependents for ${identityText(owner.identity)} failed with failed to orphan dependents of owner ${identityText(owner.identity)}, got errors: ${aggregate}` });
      return 'requeue';
    }
    this.log.v(5).info('successfully updated all dependents', { owner: identityText(owner.identity) });
    try {
      await this.ops.removeFinalizer(owner, FINALIZER_ORPHAN);
    } catch (e) {
      this.log.error('Unhandled Error', { err: `removeOrphanFinalizer for ${identityText(owner.identity)} failed with ${goClientErrorText(e)}` });
      return 'requeue';
    }
    return 'forget';
  }
}
