// Upstream's namespacedResourcesDeleter (pkg/controller/namespace/deletion), through the API only:
// for a namespace being deleted, make sure it is Terminating, delete everything in it (each
// namespaced resource discovery lists with `delete`: one deletecollection where served, else list
// and delete each), record how that went in its status conditions, and once nothing is left take
// the controller's `platform` finalizer off through namespaces/{name}/finalize (the API server then
// deletes it). Objects that finalizers hold are waited for, estimated at 15 s.
import { FINALIZER_PLATFORM } from '../../core/registry/core-finalizers.js';
import { METADATA_LIST_ACCEPT } from '../../core/client/metadata-client.js';
import { isApiError, resourcePath, type List, type ResourceRef, type RestClient } from '../../core/client/rest-client.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { aggregate } from '../../core/aggregate.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { Logger } from '../../core/log.js';
import { NamespaceConditionUpdater } from './conditions.js';
import type { Namespace } from '../../core/api/namespace.js';
import { deletableResources, serverPreferredNamespacedResources, type GroupVersionResource } from '../../core/client/discovery.js';

export const NAMESPACE_RESOURCE: ResourceRef = { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace' };

/** finalizerEstimateSeconds: what an object held by finalizers is assumed to need. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** Content is left (objects being finalized): the caller tries again after about half the estimate. */
export class ResourcesRemainingError extends Error {
  override readonly name = 'ResourcesRemainingError';
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

/** The background deletion the controller asks for, so that the garbage collector adds no orphan finalizer. */
const BACKGROUND = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };

const isNotSupported = (e: unknown): boolean => isApiError(e) && (e.code === 405 || e.code === 404);
const gvrKey = (g: GroupVersionResource): string => `${g.group}/${g.version}/${g.resource}`;

interface GvrOutcome {
  readonly estimate: number;
  readonly remaining: number;
  readonly finalizers: ReadonlyMap<string, number>;
}

export class NamespacedResourcesDeleter {
  /** operationNotSupportedCache: `list` and `deletecollection` per resource, from discovery and from 405/404 answers. */
  readonly #notSupported = new Set<string>();

  constructor(private readonly client: RestClient, private readonly log: Logger, private readonly now: () => Date = () => new Date()) {}

  /**
   * Delete: nothing to do for a namespace that is gone or not being deleted; throws
   * ResourcesRemainingError while content is waited for, any other error when a step failed.
   */
  async delete(name: string, signal?: AbortSignal): Promise<void> {
    const o = signal ? { signal } : {};
    let ns: Namespace;
    try {
      ns = await this.client.get<Namespace>(NAMESPACE_RESOURCE, name, undefined, o);
    } catch (e) {
      if (isApiError(e, 'NotFound')) return;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return;
    this.log.v(5).info('Namespace controller - syncNamespace', { namespace: name, finalizerToken: FINALIZER_PLATFORM });
    try {
      ns = await this.#retryOnConflict(ns, (n) => this.#updateStatusPhase(n, signal), signal);
    } catch (e) {
      if (isApiError(e, 'NotFound')) return;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return;
    if (!ns.spec?.finalizers?.length) return;
    const estimate = await this.#deleteAllContent(ns, signal);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    try {
      await this.#retryOnConflict(ns, (n) => this.#finalize(n, signal), signal);
    } catch (e) {
      // Another controller sharing the finalizer finished the deletion first.
      if (isApiError(e, 'NotFound')) return;
      throw e;
    }
  }

  /** retryOnConflictError: a conflict reads the namespace again, which must still be the same one. */
  async #retryOnConflict(ns: Namespace, fn: (n: Namespace) => Promise<Namespace>, signal?: AbortSignal): Promise<Namespace> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (e) {
        if (!isApiError(e, 'Conflict')) throw e;
      }
      const prev = latest;
      latest = await this.client.get<Namespace>(NAMESPACE_RESOURCE, prev.metadata.name ?? '', undefined, signal ? { signal } : {});
      if (prev.metadata.uid !== latest.metadata.uid) throw new Error('namespace uid has changed across retries');
    }
  }

  /** updateNamespaceStatusFunc: a namespace being deleted is Terminating. */
  async #updateStatusPhase(ns: Namespace, signal?: AbortSignal): Promise<Namespace> {
    if (!ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return ns;
    const next = structuredClone(ns);
    next.status = { ...next.status, phase: 'Terminating' };
    return this.client.update(NAMESPACE_RESOURCE, next, 'status', signal ? { signal } : {});
  }

  /** finalizeNamespace: spec.finalizers without ours, sorted and each once (a Go string set's List). */
  async #finalize(ns: Namespace, signal?: AbortSignal): Promise<Namespace> {
    const rest = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_PLATFORM))].sort();
    const next: Namespace = { ...structuredClone(ns), spec: { ...ns.spec, finalizers: rest } };
    try {
      return await this.client.update(NAMESPACE_RESOURCE, next, 'finalize', signal ? { signal } : {});
    } catch (e) {
      // Removed already: life is good.
      if (isApiError(e, 'NotFound')) return ns;
      throw e;
    }
  }

  #supported(op: 'list' | 'deletecollection', gvr: GroupVersionResource): boolean {
    return !this.#notSupported.has(`${op} ${gvrKey(gvr)}`);
  }

  #setNotSupported(op: 'list' | 'deletecollection', gvr: GroupVersionResource): void {
    this.#notSupported.add(`${op} ${gvrKey(gvr)}`);
  }

  #ref(gvr: GroupVersionResource, namespace: string): ResourceRef {
    return { group: gvr.group, version: gvr.version, plural: gvr.resource, namespace };
  }

  /** deleteCollection: false when the resource has none (discovery says so, or the server answers 405/404). */
  async #deleteCollection(gvr: GroupVersionResource, namespace: string, signal?: AbortSignal): Promise<boolean> {
    if (!this.#supported('deletecollection', gvr)) return false;
    const r = this.#ref(gvr, namespace);
    const path = r.group ? `/apis/${r.group}/${r.version}/namespaces/${encodeURIComponent(namespace)}/${r.plural}` : `/api/${r.version}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`;
    try {
      await this.client.request('DELETE', path, { body: BACKGROUND, ...(signal ? { signal } : {}) });
      return true;
    } catch (e) {
      if (isNotSupported(e)) {
        this.log.v(5).info('Namespace controller - deleteCollection not supported', { namespace, resource: gvrKey(gvr) });
        this.#setNotSupported('deletecollection', gvr);
        return false;
      }
      throw e;
    }
  }

  /**
   * listCollection: undefined when the resource cannot be listed. Through the metadata client, as
   * upstream's deleter: names and finalizers are all it reads, so a namespace of large Secrets is
   * not fetched whole (a server without the metadata form answers JSON, the Accept's last choice).
   */
  async #list(gvr: GroupVersionResource, namespace: string, signal?: AbortSignal): Promise<ApiObject[] | undefined> {
    if (!this.#supported('list', gvr)) return undefined;
    try {
      const list = await this.client.request<List<ApiObject>>('GET', resourcePath(this.#ref(gvr, namespace)), { headers: { accept: METADATA_LIST_ACCEPT }, ...(signal ? { signal } : {}) });
      return list.items ?? [];
    } catch (e) {
      if (isNotSupported(e)) {
        this.#setNotSupported('list', gvr);
        return undefined;
      }
      throw e;
    }
  }

  /** deleteEachItem: what is gone already, or cannot be deleted, is passed over. */
  async #deleteEachItem(gvr: GroupVersionResource, namespace: string, signal?: AbortSignal): Promise<void> {
    const items = await this.#list(gvr, namespace, signal);
    for (const item of items ?? []) {
      try {
        await this.client.delete(this.#ref(gvr, namespace), item.metadata.name ?? '', BACKGROUND, signal ? { signal } : {});
      } catch (e) {
        if (!isNotSupported(e)) throw e;
      }
    }
  }

  /** deleteAllContentForGroupVersionResource (no resource of plat's has a graceful-termination estimate: pods are upstream's only one). */
  async #deleteAllOf(gvr: GroupVersionResource, namespace: string, signal?: AbortSignal): Promise<GvrOutcome> {
    const none = { estimate: 0, remaining: 0, finalizers: new Map<string, number>() };
    if (!(await this.#deleteCollection(gvr, namespace, signal))) await this.#deleteEachItem(gvr, namespace, signal);
    const left = await this.#list(gvr, namespace, signal);
    if (!left?.length) return none;
    const finalizers = new Map<string, number>();
    for (const item of left) for (const f of item.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    if (finalizers.size) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining: left.length, finalizers };
    const err = new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrText(gvr)}`);
    throw Object.assign(err, { outcome: { estimate: 0, remaining: left.length, finalizers } satisfies GvrOutcome });
  }

  /**
   * deleteAllContent: every deletable namespaced resource, errors kept and the others gone on with;
   * the conditions written when they changed. Returns the estimate (0: nothing left to wait for).
   */
  async #deleteAllContent(ns: Namespace, signal?: AbortSignal): Promise<number> {
    const namespace = ns.metadata.name ?? '';
    const errs: string[] = [];
    const conditions = new NamespaceConditionUpdater(this.now);
    this.log.v(4).info('namespace controller - deleteAllContent', { namespace });
    const { lists, error: discoveryError } = await serverPreferredNamespacedResources(this.client, signal);
    if (discoveryError) { errs.push(discoveryError.message); conditions.discoveryError(discoveryError); }
    const { resources, error: parseError } = deletableResources(lists);
    if (parseError) { errs.push(parseError.message); conditions.groupVersionError(parseError); }
    // initOpCache: what discovery says a resource does not serve is never asked for.
    for (const gvr of resources) {
      if (!gvr.verbs.includes('list')) this.#setNotSupported('list', gvr);
      if (!gvr.verbs.includes('deletecollection')) this.#setNotSupported('deletecollection', gvr);
    }
    let estimate = 0;
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const gvr of resources) {
      let outcome: GvrOutcome;
      try {
        outcome = await this.#deleteAllOf(gvr, namespace, signal);
      } catch (e) {
        if (signal?.aborted) throw e;
        const text = goClientErrorText(e);
        errs.push(text);
        conditions.deleteContentError(text);
        outcome = (e as { outcome?: GvrOutcome }).outcome ?? { estimate: 0, remaining: 0, finalizers: new Map() };
      }
      estimate = Math.max(estimate, outcome.estimate);
      if (outcome.remaining > 0) {
        remaining.set(`${gvr.resource}.${gvr.group}`, outcome.remaining);
        for (const [f, n] of outcome.finalizers) if (n > 0) finalizers.set(f, (finalizers.get(f) ?? 0) + n);
      }
    }
    conditions.contentTotals(remaining, finalizers);
    // Always written when changed: a condition that failed before and passes now must say so.
    const status = structuredClone(ns.status ?? {});
    if (conditions.update(status)) {
      try {
        await this.client.update(NAMESPACE_RESOURCE, { ...ns, status }, 'status', signal ? { signal } : {});
      } catch (e) {
        if (signal?.aborted) throw e;
        this.log.error('Unhandled Error', { err: `couldn't update status condition for namespace "${namespace}": ${goClientErrorText(e)}` });
      }
    }
    this.log.v(4).info('namespace controller - deleteAllContent', { namespace, estimate, ...(errs.length ? { err: aggregate(errs) } : {}) });
    if (errs.length) throw new Error(aggregate(errs));
    return estimate;
  }
}

/** schema.GroupVersionResource's %v: its struct fields in braces. */
const gvrText = (g: GroupVersionResource): string => `${g.group}/${g.version}, Resource=${g.resource}`;
