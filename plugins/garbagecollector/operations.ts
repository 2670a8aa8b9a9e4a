// The garbage collector's API calls (upstream's operations.go and patch.go), through the
// controller's client (its qps and burst): objects are read as PartialObjectMetadata (the metadata
// client's), kinds mapped to resources through what discovery last listed (the REST mapper).
// ownerReferences are changed by a strategic merge patch whose `metadata.uid` pins the object;
// where a resource refuses that media type (415) by a JSON merge patch of the whole list pinned by
// resourceVersion. Finalizers are taken off by a JSON merge patch pinned by resourceVersion.
import type { ApiObject, ObjectMeta, OwnerReference } from '../../core/api/meta.js';
import { isApiError, objectPath, type ResourceRef, type RestClient } from '../../core/client/rest-client.js';
import type { ApiResourceList } from '../../core/client/discovery.js';
import { sleep } from '../../core/abort-wait.js';
import { parseGroupVersion } from '../../core/api/group-version.js';
import { METADATA_OBJECT_ACCEPT } from '../../core/client/metadata-client.js';
import type { Logger } from '../../core/log.js';
import { identityText, type GraphNode, type ObjectReference } from './graph.js';

const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
/** retry.DefaultBackoff: 4 steps from 10 ms, times 5 each (jitter 0.1 left out). */
const DEFAULT_BACKOFF = { steps: 4, durationMs: 10, factor: 5 };

/** restMappingError. */
export class RestMappingError extends Error {
  override readonly name = 'RestMappingError';
  constructor(kind: string, apiVersion: string) {
    super(`unable to get REST mapping for ${apiVersion}/${kind}.`);
  }
}

interface Mapping { readonly ref: ResourceRef; readonly namespaced: boolean }


export class Operations {
  /** `group/Kind` → the resource discovery lists it as, in its preferred version. */
  #mapper = new Map<string, Mapping>();
  constructor(private readonly client: RestClient, private readonly log: Logger, private readonly signal: AbortSignal) {}

  /** The REST mapper's Reset: what discovery lists now. */
  resetMapper(lists: readonly ApiResourceList[]): void {
    const next = new Map<string, Mapping>();
    for (const l of lists) {
      const gv = parseGroupVersion(l.groupVersion);
      if (!gv) continue;
      const { group, version } = gv;
      for (const r of l.resources) {
        if (r.kind) next.set(`${group}/${r.kind}`, { ref: { group, version, plural: r.name, kind: r.kind }, namespaced: !!r.namespaced });
      }
    }
    this.#mapper = next;
  }

  /** apiResource: the resource of a kind, and whether it is namespaced. */
  apiResource(apiVersion: string, kind: string): Mapping {
    const gv = parseGroupVersion(apiVersion);
    const m = gv && this.#mapper.get(`${gv.group}/${kind}`);
    if (!m) throw new RestMappingError(kind, apiVersion);
    return m;
  }

  /** The resource of `id` in its namespace (none for a cluster-scoped one: resourceDefaultNamespace). */
  #ref(id: { apiVersion: string; kind: string; namespace: string }): ResourceRef {
    const { ref, namespaced } = this.apiResource(id.apiVersion, id.kind);
    return namespaced ? { ...ref, namespace: id.namespace } : ref;
  }

  /** A GET through the metadata client. */
  async getObject(id: { apiVersion: string; kind: string; namespace: string; name: string }): Promise<ApiObject> {
    return this.client.request<ApiObject>('GET', objectPath(this.#ref(id), id.name), { headers: { accept: METADATA_OBJECT_ACCEPT }, signal: this.signal });
  }

  /**
   * deleteObject: pinned by uid and by the resourceVersion the decision was made on; a conflict
   * with a later version whose ownerReferences are still those is tried once more at that version.
   */
  async deleteObject(id: ObjectReference, resourceVersion: string, owners: readonly OwnerReference[] | undefined, propagationPolicy: string): Promise<void> {
    const path = objectPath(this.#ref(id), id.name);
    const del = (rv: string) => this.client.request('DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', preconditions: { uid: id.uid, ...(rv ? { resourceVersion: rv } : {}) }, propagationPolicy },
      signal: this.signal,
    });
    try {
      await del(resourceVersion);
    } catch (e) {
      if (!isApiError(e, 'Conflict') || !resourceVersion) throw e;
      let live: ApiObject;
      try {
        live = await this.getObject(id);
      } catch (getError) {
        // What it wanted to delete is gone: done.
        if (isApiError(getError, 'NotFound')) return;
        throw e;
      }
      const m = live.metadata;
      if (m.uid !== id.uid || m.resourceVersion === resourceVersion || JSON.stringify(m.ownerReferences ?? []) !== JSON.stringify(owners ?? [])) throw e;
      await del(m.resourceVersion ?? '');
    }
  }

  async #patch(id: ObjectReference, body: unknown, type: string): Promise<void> {
    await this.client.request('PATCH', objectPath(this.#ref(id), id.name), { body, contentType: type, signal: this.signal });
  }

  /** patch: a strategic merge patch, or the JSON merge patch `fallback` makes where that type is refused. */
  async patch(n: GraphNode, strategic: unknown, fallback: (meta: ObjectMeta) => unknown): Promise<void> {
    try {
      await this.#patch(n.identity, strategic, STRATEGIC_MERGE_PATCH);
    } catch (e) {
      if (!(isApiError(e) && e.code === 415)) throw e;
      await this.#patch(n.identity, fallback((await this.getObject(n.identity)).metadata), MERGE_PATCH);
    }
  }

  /** The patches that take the references to `ownerUids` off `n` (deleteOwnerRefStrategicMergePatch, deleteOwnerRefJSONMergePatch). */
  deleteOwnerRefs(n: GraphNode, ownerUids: readonly string[]): Promise<void> {
    const strategic = { metadata: { ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })), uid: n.identity.uid } };
    return this.patch(n, strategic, (meta) => {
      const kept = (meta.ownerReferences ?? []).filter((r) => !ownerUids.includes(r.uid));
      return { metadata: { resourceVersion: meta.resourceVersion ?? '', ownerReferences: kept.length ? kept : null } };
    });
  }

  /** unblockOwnerReferences*Patch: every blocking reference of `n` made non-blocking. */
  unblockOwnerReferences(n: GraphNode): Promise<void> {
    const blocking = n.owners.filter((o) => o.blockOwnerDeletion === true).map((o) => ({ ...o, blockOwnerDeletion: false }));
    return this.patch(n, { metadata: { ownerReferences: blocking, uid: n.identity.uid } }, (meta) => ({
      metadata: { resourceVersion: meta.resourceVersion ?? '', ownerReferences: n.owners.map((o) => ({ ...o, blockOwnerDeletion: false })) },
    }));
  }

  /** removeFinalizer, retried on conflict (retry.DefaultBackoff). */
  async removeFinalizer(owner: GraphNode, finalizer: string): Promise<void> {
    const id = owner.identity;
    for (let step = 0, wait = DEFAULT_BACKOFF.durationMs; step < DEFAULT_BACKOFF.steps; step++, wait *= DEFAULT_BACKOFF.factor) {
      let obj: ApiObject;
      try {
        obj = await this.getObject(id);
      } catch (e) {
        if (isApiError(e, 'NotFound')) return;
        throw new Error(`cannot finalize owner ${identityText(id)}, because cannot get it: ${(e as Error).message}. The garbage collector will retry later`, { cause: e });
      }
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) {
        this.log.v(5).info('finalizer already removed from object', { finalizer, object: identityText(id) });
        return;
      }
      const rest = finalizers.filter((f) => f !== finalizer);
      try {
        await this.#patch(id, { metadata: { resourceVersion: obj.metadata.resourceVersion ?? '', finalizers: rest.length ? rest : null } }, MERGE_PATCH);
        return;
      } catch (e) {
        if (!isApiError(e, 'Conflict')) throw e;
      }
      if (step + 1 < DEFAULT_BACKOFF.steps) await sleep(wait, this.signal);
    }
    throw new Error(`updateMaxRetries(${DEFAULT_BACKOFF.steps}) has reached. The garbage collector will retry later for owner ${identityText(id)}`);
  }
}
