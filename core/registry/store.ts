// The generic store: owns the order of every write (decode is done by the caller) —
// mutating admission -> system metadata -> strategy prepare -> validation (422) ->
// validating admission -> storage — the way apiserver's generic registry does (k8s-behaviour §2.6).
// Resources bring only their Strategy.
import { isGoEmptyValue } from '../api/go-empty.js';
import { randomUUID } from 'node:crypto';
import { randomNameSuffix } from '../api/generate-name.js';
import { isDeepStrictEqual } from 'node:util';
import { errors, isStatusError, StatusError, type QualifiedResource } from '../api/errors.js';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { goOrdered, withResourceVersion } from '../api/go-order.js';
import { rfc3339, type ApiObject } from '../api/meta.js';
import { performance } from 'node:perf_hooks';
import type { AdmissionOperation, AdmissionRequest } from '../admission/request.js';
import { admissionOptions, type RequestOptions } from '../admission/options.js';
import type { AdmissionMetrics } from '../metrics/apiserver-admission.js';
import type { Attributes, Decision } from '../authz/attributes.js';
import { authorizeUnion } from '../authz/union.js';
import type { UserInfo } from '../authn/user.js';
import type { Hooks } from '../hooks.js';
import { isStorageError, JsonText, type Storage, type KeyValue } from '../storage/storage.js';
import { ConvertingStorage } from '../storage/converting-storage.js';
import type { ResourceDefinition } from './resource.js';
import type { Strategy, StrategyContext } from './strategy.js';
import { invalidObjErrorText, uidPreconditionFailed } from './precondition-failed.js';
import { pathSegmentNameErrors, restoreSystemMeta, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { ensureNamespaceMatches } from './namespace-match.js';
import { deletionFinalizersForGarbageCollection } from './gc-finalizers.js';
import { isPluginFailure, refusalReason } from '../admission/plugin-failure.js';
import { admissionAnnotations, type AnnotationTarget } from '../admission/annotations.js';
import { runningTap } from '../running-tap.js';
import { silentLogger, type Logger } from '../log.js';
import { warnAnsweringTaps } from '../admission/answering-taps.js';
import { shapeOf } from '../api/fieldsets/schema-shape.js';
import { prefixFromUserAgent, resetFieldSet, updateManagedFields, type WriteManager } from './field-manager.js';

export interface RequestContext {
  readonly user: UserInfo;
  readonly namespace: string;
  readonly dryRun: boolean;
  /** Warnings to send back in `Warning` headers. */
  readonly warnings: string[];
  /** The options the request's handler decoded; absent for a write plat makes itself. */
  readonly options?: RequestOptions;
  /** When the request times out, in ms since the epoch; absent for a write plat makes itself. */
  readonly deadline?: number;
  /**
   * The request's context: aborted at its deadline (its client answered 504) or when its client
   * went away, with ctx.Err()'s text as the reason; absent for a write plat makes itself.
   */
  readonly signal?: AbortSignal;
  /** The request's audit event, when it is audited: admission plugins' annotations go there. */
  readonly audit?: AnnotationTarget;
  /** The request's User-Agent (its manager when it names no fieldManager); absent for a write plat makes itself. */
  readonly userAgent?: string;
}

/** A write plat makes itself is managed as upstream's loopback client's (`kube-apiserver/...`) is. */
const INTERNAL_MANAGER = 'plat-apiserver';

export interface StoreOptions {
  /** Key prefix in storage (`--store-prefix`, default /registry). */
  readonly prefix: string;
  readonly hooks: Pick<Hooks, 'admitMutate' | 'admitValidate' | 'authorize'>;
  readonly now?: () => Date;
  readonly random?: (n: number) => string;
  /** Where a failing admission plugin is named (with its stack when it is a bug). */
  readonly logger?: Logger;
  /** The API server's admission metrics: each phase is observed as upstream's WithStepMetrics. */
  readonly admissionMetrics?: AdmissionMetrics;
  /**
   * The store's EnableGarbageCollection (the API server's --enable-garbage-collector): a DELETE
   * sets the `orphan` and `foregroundDeletion` finalizers its propagation asks for. Off, none is
   * set that no collector would ever take off again.
   */
  readonly garbageCollection?: boolean;
}

const MAX_GENERATE_ATTEMPTS = 8;
const MAX_UPDATE_RETRIES = 16;

/**
 * How an update builds the new object: from a private copy of the current one, or (PUT) a whole
 * replacement, which the store takes over: one that pins a resourceVersion is written at most once
 * (a conflict is the caller's 409), so it is used as it is; any other is copied for each attempt.
 */
export type UpdateFn = (current: ApiObject) => ApiObject | Promise<ApiObject>;

/**
 * APIObjectVersioner.ObjectResourceVersion read as etcd3's Create reads it: only a version that
 * strconv.ParseUint takes and that is not 0 is refused; any other is dropped as storage prepares
 * the object.
 */
function resourceVersionSetOnCreate(rv: string | undefined): boolean {
  return !!rv && /^[0-9]+$/.test(rv) && BigInt(rv) > 0n && BigInt(rv) < 2n ** 64n;
}

export class ResourceStore {
  readonly qualified: QualifiedResource;
  readonly #storage: Storage;
  readonly #opts: StoreOptions;
  readonly #now: () => Date;
  readonly #random: (n: number) => string;
  readonly #log: Logger;
  /** toSharedObject's object for each frozen stored value: one for a write's answer and its events. */
  readonly #shared = new WeakMap<object, ApiObject>();
  readonly #runningTap: Record<'admitMutate' | 'admitValidate', (req: object) => string | undefined>;

  constructor(readonly def: ResourceDefinition, storage: Storage, opts: StoreOptions) {
    this.qualified = { group: def.group, resource: def.plural };
    const stored = def.storedAs;
    this.#storage = stored
      ? new ConvertingStorage(storage, { fromStored: (v) => stored.fromStored(v as ApiObject), toStored: (v) => stored.toStored(v as ApiObject) })
      : storage;
    this.#opts = opts;
    this.#now = opts.now ?? (() => new Date());
    this.#random = opts.random ?? randomNameSuffix;
    this.#log = opts.logger ?? silentLogger;
    this.#runningTap = { admitMutate: runningTap(opts.hooks.admitMutate), admitValidate: runningTap(opts.hooks.admitValidate) };
    if (opts.logger) for (const phase of ['admitMutate', 'admitValidate'] as const) warnAnsweringTaps(opts.hooks[phase], phase, opts.logger);
  }

  get storage(): Storage { return this.#storage; }
  get namespaced(): boolean { return this.def.scope === 'Namespaced'; }
  get apiVersion(): string { return this.def.group ? `${this.def.group}/${this.def.version}` : this.def.version; }

  /** Storage prefix of this resource (all namespaces when `namespace` is empty). */
  prefixFor(namespace: string): string {
    const { group, plural } = this.def.storedAs ?? this.def;
    const base = `${this.#opts.prefix}/${group ? group + '/' : ''}${plural}/`;
    return this.namespaced && namespace ? `${base}${namespace}/` : base;
  }
  keyFor(namespace: string, name: string): string { return `${this.prefixFor(namespace)}${name}`; }

  /** How many objects of this resource are stored (apiserver_storage_objects): one key read, the rest counted. */
  async countObjects(): Promise<number> {
    const r = await this.#storage.list(this.prefixFor(''), { limit: 1 });
    return r.items.length + (r.more ? r.remaining : 0);
  }

  /**
   * The API object of a frozen stored value without copying it, frozen: only the top level and
   * metadata are new, everything below is shared. For read-only consumers: a write's answer and
   * its watch events, which get the same object (its JSON is then made once, goJsonCompact).
   */
  toSharedObject(kv: Pick<KeyValue, 'value' | 'modRevision'>): ApiObject {
    const value = kv.value as ApiObject;
    const resourceVersion = String(kv.modRevision);
    const known = this.#shared.get(value);
    if (known?.metadata.resourceVersion === resourceVersion) return known;
    const obj = this.#served(value, resourceVersion);
    Object.freeze(obj.metadata);
    Object.freeze(obj);
    if (Object.isFrozen(value)) this.#shared.set(value, obj);
    return obj;
  }

  /**
   * The API object of a value storage's get or list has just handed over (the caller's own, see
   * Storage): only its top level and metadata are new, nothing is copied.
   */
  adopt(kv: Pick<KeyValue, 'value' | 'modRevision'>): ApiObject {
    return this.#own(kv);
  }

  /** Turns a stored value into the API object: resourceVersion is the key's modRevision. */
  toObject(kv: Pick<KeyValue, 'value' | 'modRevision'>): ApiObject {
    return this.#served(structuredClone(kv.value) as ApiObject, String(kv.modRevision));
  }

  /**
   * A stored value as the API serves it, sharing everything below the top level and metadata:
   * kind and apiVersion first and resourceVersion after uid, as Go writes them (go-order.ts).
   */
  #served(stored: ApiObject, resourceVersion: string): ApiObject {
    const obj = { kind: this.def.kind, apiVersion: this.apiVersion, ...stored };
    obj.kind = this.def.kind;
    obj.apiVersion = this.apiVersion;
    obj.metadata = withResourceVersion(stored.metadata ?? {}, resourceVersion);
    return obj;
  }

  #toStored(obj: ApiObject): ApiObject {
    // Shallow: storage serialises what it is given, and comparisons only read.
    const { resourceVersion: _rv, selfLink: _self, ...metadata } = obj.metadata;
    return { ...obj, metadata };
  }

  /**
   * The stored form of a validated object, encoded before validating admission runs: the plugins
   * then see the object itself, and whatever one of them changes is never stored (nor returned).
   * Its keys are put in the order Go writes them once, here, so reads serve them as stored.
   */
  #encode(obj: ApiObject): JsonText {
    return new JsonText(JSON.stringify(this.#ordered(obj)));
  }

  /** The stored form of `obj` in the key order Go writes it (go-order.ts). */
  #ordered(obj: ApiObject): ApiObject {
    return goOrdered(this.#toStored(obj), this.def.schema) as ApiObject;
  }

  /** toObject for a value storage's get or list has just handed over (the caller's own): not copied again. */
  #own(kv: Pick<KeyValue, 'value' | 'modRevision'>): ApiObject {
    return this.#served(kv.value as ApiObject, String(kv.modRevision));
  }

  async get(namespace: string, name: string): Promise<ApiObject> {
    const kv = await this.#storage.get(this.keyFor(namespace, name));
    if (!kv) throw errors.notFound(this.qualified, name);
    return this.#own(kv);
  }

  #strategy(subresource: string): Strategy {
    if (!subresource) return this.def.strategy;
    const sub = this.def.subresources?.find((s) => s.name === subresource);
    if (!sub?.strategy) throw errors.methodNotAllowed('update', this.qualified);
    return sub.strategy;
  }

  /** Allowed to create `name`, or Forbidden with the authorizer's reason (upstream's withAuthorization). */
  async #authorizeCreate(ctx: RequestContext, name: string, subresource: string): Promise<void> {
    const d = this.def;
    const collection = d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`;
    const decision = await authorizeUnion(this.#opts.hooks.authorize, {
      user: ctx.user, verb: 'create', isResourceRequest: true,
      path: `${collection}${ctx.namespace ? `/namespaces/${ctx.namespace}` : ''}/${d.plural}/${name}${subresource ? `/${subresource}` : ''}`,
      apiGroup: d.group, apiVersion: d.version, resource: d.plural, subresource, namespace: ctx.namespace, name,
    });
    if (decision?.decision !== 'allow') throw errors.forbidden(this.qualified, name, decision?.reason ?? '');
  }

  #strategyContext(ctx: RequestContext, subresource: string): StrategyContext {
    return { user: ctx.user, subresource, now: this.#now() };
  }

  /** `requestName`: the name in the request's URL, which only a POST lacks (the object's name otherwise). */
  #admission(op: AdmissionOperation, ctx: RequestContext, subresource: string, name: string,
    object: ApiObject | undefined, oldObject: ApiObject | undefined, requestName = name): AdmissionRequest {
    const hooks = this.#opts.hooks;
    return {
      operation: op, group: this.def.group, version: this.def.version, kind: this.def.kind,
      resource: this.def.plural, subresource, namespace: ctx.namespace, name, requestName, user: ctx.user,
      dryRun: ctx.dryRun, object, oldObject, options: admissionOptions(op, ctx.options, ctx.dryRun), warnings: ctx.warnings,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      authorize: (a: Omit<Attributes, 'user'>): Promise<Decision | undefined> => authorizeUnion(hooks.authorize, { ...a, user: ctx.user }),
      ...admissionAnnotations(ctx),
    };
  }

  /**
   * Runs an admission phase. Validating plugins run after validation, so what one changes must not
   * be stored: callers hand them an object that is no longer used (create and update have encoded
   * it already, #encode) or a copy. A plugin refuses by throwing: a StatusError goes out as it is, any
   * other error becomes 403 Forbidden naming the object (admission.NewForbidden upstream). Mutating
   * admission on create runs before a name is generated, so, as upstream, the name shown is then
   * the generateName prefix, or "Unknown" when the object has neither.
   *
   * A bug or a system error (isPluginFailure) is no refusal: upstream answers a plugin that panics,
   * or returns an error that is not a Status, with 500, and logs it. Here the client gets 500
   * InternalError naming the plugin but not the error's text (a SyntaxError quotes the JSON it
   * choked on, an ENOENT the server's path), and the log has the plugin, the request's coordinates
   * and the stack at error level; never the object.
   */
  async #admit(phase: 'admitMutate' | 'admitValidate', req: AdmissionRequest): Promise<void> {
    const metrics = this.#opts.admissionMetrics;
    const start = metrics ? performance.now() : 0;
    try {
      await this.#opts.hooks[phase].promise(req);
      metrics?.step(phase === 'admitMutate' ? 'admit' : 'validate', req.operation, false, (performance.now() - start) / 1000);
    } catch (e) {
      metrics?.step(phase === 'admitMutate' ? 'admit' : 'validate', req.operation, true, (performance.now() - start) / 1000);
      const plugin = this.#runningTap[phase](req) ?? 'unknown';
      const name = req.name || req.object?.metadata?.name || req.object?.metadata?.generateName || 'Unknown';
      const where = { plugin, phase, operation: req.operation, resource: `${this.def.plural}${req.subresource ? `/${req.subresource}` : ''}.${this.def.group}`,
        ...(req.namespace ? { namespace: req.namespace } : {}), name, user: req.user.name };
      if (isPluginFailure(e)) {
        this.#log.error('admission plugin failed', { ...where, error: e.stack ?? String(e) });
        throw errors.internal(new Error(`admission plugin "${plugin}" failed (see the API server log)`));
      }
      const refusal = isStatusError(e) ? e : errors.forbidden(this.qualified, name, refusalReason(e, plugin));
      this.#log.v(2).info('admission plugin refused the request', { ...where, code: refusal.status.code, message: refusal.status.message });
      throw refusal;
    }
  }

  /**
   * Both admission phases for a create on a subresource that is answered, not stored
   * (serviceaccounts/{name}/token): the object is the subresource's body, of kind `kind`.
   */
  async admitSubresourceCreate(ctx: RequestContext, name: string, subresource: string, kind: string, obj: ApiObject): Promise<ApiObject> {
    const req = { ...this.#admission('CREATE', ctx, subresource, name, obj, undefined), kind };
    await this.#admit('admitMutate', req);
    const admitted = req.object ?? obj;
    await this.#admit('admitValidate', { ...req, object: structuredClone(admitted) });
    return admitted;
  }

  /**
   * A create answered, not stored (def.review): as create.go and the review RESTs order it, mutating
   * admission, the review's own checks, validating admission on a copy (unless the review skips
   * it, as SelfSubjectRulesReview's REST does), then the answer. Nothing is
   * written, so a dry run is answered as any other; admission is told it is one.
   */
  async review(ctx: RequestContext, obj: ApiObject): Promise<ApiObject> {
    const req = this.#admission('CREATE', ctx, '', obj.metadata.name ?? '', obj, undefined, '');
    await this.#admit('admitMutate', req);
    const admitted = req.object ?? obj;
    const caller = { user: ctx.user, namespace: ctx.namespace, ...(ctx.signal ? { signal: ctx.signal } : {}) };
    this.def.validateReview?.(caller, admitted);
    if (!this.def.reviewSkipsValidatingAdmission) await this.#admit('admitValidate', { ...req, object: structuredClone(admitted) });
    const answer = await this.def.review!(caller, admitted);
    return { ...answer, metadata: omitEmptyMetadata(answer.metadata) };
  }

  /**
   * Upstream's storage calls carry the request's context: once it has ended (its deadline passed,
   * the client answered 504; or the client went away, net/http cancelling the request's context),
   * etcd's client refuses the call with ctx.Err() and nothing is written. A request held past it,
   * by an admission plugin that answers late say, must not land either: the client that retries a
   * generateName create would get a second object. A write already under way when it ends still
   * lands, as upstream's transaction in flight does.
   */
  #beforeWrite(ctx: RequestContext): void {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
  }

  #invalid(name: string, errs: FieldError[]): StatusError {
    return errors.invalid({ group: this.def.group, kind: this.def.kind }, name, errs);
  }

  /**
   * The field manager of a write through `subresource` (managerOrUserAgent): the fieldManager
   * option, else the User-Agent's prefix.
   */
  writeManager(ctx: RequestContext, subresource: string): WriteManager {
    const option = ctx.options && 'write' in ctx.options ? ctx.options.write.fieldManager : '';
    const manager = option || (ctx.userAgent === undefined ? INTERNAL_MANAGER : prefixFromUserAgent(ctx.userAgent));
    const strategy = subresource ? this.def.subresources?.find((s) => s.name === subresource)?.strategy : this.def.strategy;
    return { manager, apiVersion: this.apiVersion, subresource, time: rfc3339(this.#now()), shape: shapeOf(this.def.schema), reset: resetFieldSet(strategy?.resetFields) };
  }

  /** FieldManager.UpdateNoErrors on the object as the client made it (before admission and the strategy). */
  #manageFields(ctx: RequestContext, subresource: string, live: ApiObject | undefined, obj: ApiObject): void {
    const entries = updateManagedFields(live, obj, this.writeManager(ctx, subresource));
    if (entries) obj.metadata.managedFields = entries; else delete obj.metadata.managedFields;
  }

  /** `managed`: the caller (an apply) has set managedFields already. */
  async create(ctx: RequestContext, input: ApiObject, opts: { managed?: boolean; byUpdate?: boolean } = {}): Promise<ApiObject> {
    this.def.defaults?.(input);
    if (!opts.managed) this.#manageFields(ctx, '', undefined, input);
    // A create made by a PUT or an apply names the object in its URL; a POST does not.
    const requestName = (name: string) => (opts.byUpdate ? name : '');
    const mutate = this.#admission('CREATE', ctx, '', input.metadata.name ?? '', input, undefined, requestName(input.metadata.name ?? ''));
    await this.#admit('admitMutate', mutate);
    const obj = mutate.object ?? input;
    if (obj !== input) this.def.defaults?.(obj);
    const meta = obj.metadata;
    const now = this.#now();
    meta.uid = randomUUID();
    meta.creationTimestamp = rfc3339(now);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    // rest.BeforeCreate: a mutating webhook cannot move the object to another namespace.
    ensureNamespaceMatches(this.namespaced, ctx.namespace, obj);
    if (this.namespaced) meta.namespace ||= '';
    const generated = !meta.name && !!meta.generateName;

    for (let attempt = 0; ; attempt++) {
      // Only a generated name is tried again, on a fresh copy each time.
      const candidate = generated ? structuredClone(obj) : obj;
      if (generated) candidate.metadata.name = `${candidate.metadata.generateName!.slice(0, 58)}${this.#random(5)}`;
      const sctx = this.#strategyContext(ctx, '');
      this.def.strategy.prepareForCreate?.(sctx, candidate);
      const name = candidate.metadata.name ?? '';
      let errs = [...validateObjectMeta(candidate.metadata, this.namespaced), ...this.def.strategy.validate(sctx, candidate)];
      if (errs.length === 0) errs = this.#nameErrors(candidate);
      if (errs.length) throw this.#invalid(name, errs);
      ctx.warnings.push(...(this.def.strategy.warnings?.(sctx, candidate) ?? []));
      const stored = this.#encode(candidate);
      const dryRunOut = ctx.dryRun ? structuredClone(candidate) : undefined;
      await this.#admit('admitValidate', this.#admission('CREATE', ctx, '', name, candidate, undefined, requestName(name)));
      try {
        const key = this.keyFor(ctx.namespace, name);
        if (dryRunOut) {
          if (await this.#storage.get(key)) throw errors.alreadyExists(this.qualified, name);
          // DryRunnableStorage answers with the object as it was to be stored, a resourceVersion
          // the client set included: storage, which would refuse one, is not asked.
          const rv = dryRunOut.metadata.resourceVersion;
          dryRunOut.apiVersion = this.apiVersion; dryRunOut.kind = this.def.kind;
          return rv ? this.#served(this.#ordered(dryRunOut), rv) : this.#ordered(dryRunOut);
        }
        // etcd3's Create, so after validation and admission, and before the name is found taken.
        if (resourceVersionSetOnCreate(candidate.metadata.resourceVersion)) throw errors.unknown('resourceVersion should not be set on objects to be created');
        this.#beforeWrite(ctx);
        return this.toSharedObject(await this.#storage.create(key, stored));
      } catch (e) {
        const exists = isStorageError(e, 'KeyExists') || (isStatusError(e) && e.reason === 'AlreadyExists');
        if (!exists) throw e;
        if (!generated || attempt + 1 >= MAX_GENERATE_ATTEMPTS) throw await this.#alreadyExists(ctx, candidate);
      }
    }
  }

  /**
   * Store.create's answer to a name taken: CheckGeneratedNameError's conflict whenever the object
   * has a generateName (even beside a name of its own), and the message says so when the object
   * there is being deleted.
   */
  async #alreadyExists(ctx: RequestContext, obj: ApiObject): Promise<StatusError> {
    const name = obj.metadata.name ?? '';
    const { status } = obj.metadata.generateName ? errors.generateNameConflict(this.qualified, name) : errors.alreadyExists(this.qualified, name);
    // Store.Create reads the object only to say it is being deleted: one it cannot read (an
    // encryption key gone) still answers the AlreadyExists its put-if-absent found.
    let there: KeyValue | undefined;
    try { there = await this.#storage.get(this.keyFor(ctx.namespace, name)); } catch { return new StatusError(status); }
    if (!(there?.value as ApiObject | undefined)?.metadata?.deletionTimestamp) return new StatusError(status);
    return new StatusError({ ...status, message: `object is being deleted: ${status.message ?? ''}` });
  }

  #nameErrors(obj: ApiObject): FieldError[] {
    const out: FieldError[] = [];
    const m = obj.metadata;
    const check = (field: string, value: string | undefined, prefix: boolean) => {
      if (!value) return;
      const msgs = this.def.validateName ? this.def.validateName(value, prefix) : pathSegmentNameErrors(value, prefix);
      for (const msg of msgs) out.push(fieldError.invalid(field, value, msg));
    };
    // ValidateObjectMetaAccessor's order: generateName, then name.
    check('metadata.generateName', m.generateName, true);
    check('metadata.name', m.name, false);
    // The storage engine's key limit (LMDB's 1978 bytes; etcd has none this small): a plat limit,
    // reached only where upstream checks no length (an Event's name is any path segment).
    const max = this.#storage.maxKeyBytes;
    if (out.length === 0 && m.name && max !== undefined) {
      const room = max - Buffer.byteLength(this.prefixFor(m.namespace ?? ''));
      if (Buffer.byteLength(m.name) > room) out.push(fieldError.tooLong('metadata.name', room));
    }
    return out;
  }

  /**
   * Guaranteed update: reads the current object, lets `apply` build the new one, and writes with a
   * compare-and-swap, retrying on a concurrent write unless the caller pinned a resourceVersion.
   * A write that changes nothing is not written (same resourceVersion, no watch event).
   */
  async update(ctx: RequestContext, name: string, subresource: string, apply: UpdateFn | ApiObject,
    options: { createIfMissing?: () => Promise<ApiObject>; managed?: boolean } = {}): Promise<{ object: ApiObject; created: boolean }> {
    const key = this.keyFor(ctx.namespace, name);
    // defaultUpdatedObjectInfo.Preconditions: a whole object's uid (a PUT's body) is one; a patch has none.
    const uid = typeof apply === 'function' ? '' : apply.metadata.uid ?? '';
    for (let attempt = 0; attempt < MAX_UPDATE_RETRIES; attempt++) {
      const kv = await this.#storage.get(key);
      if (uid) this.#checkUidPrecondition(ctx, name, uid, kv);
      if (!kv) {
        // Creating on update (a server-side apply; a PUT where the strategy allows it) is a create:
        // the caller must also be allowed to create, as upstream's withAuthorization checks.
        if (options.createIfMissing) {
          await this.#authorizeCreate(ctx, name, subresource);
          return { object: await options.createIfMissing(), created: true };
        }
        if (this.def.allowCreateOnUpdate && !subresource && typeof apply !== 'function') {
          await this.#authorizeCreate(ctx, name, subresource);
          // The version a PUT names means nothing for an object that is not there.
          const { resourceVersion: _ignored, ...metadata } = apply.metadata;
          return { object: await this.create(ctx, { ...structuredClone(apply), metadata: structuredClone(metadata) }, { byUpdate: true }), created: true };
        }
        throw errors.notFound(this.qualified, name);
      }
      const old = this.#own(kv);
      const next = typeof apply === 'function' ? structuredClone(await apply(structuredClone(old)))
        : apply.metadata.resourceVersion ? apply : structuredClone(apply);
      const prepared = await this.#prepareUpdate(ctx, subresource, next, old, options.managed ?? false, kv.stale === true);
      if (prepared.unchanged) return { object: old, created: false };
      if (ctx.dryRun) return { object: prepared.out!, created: false };
      this.#beforeWrite(ctx);
      try {
        if (prepared.completesDeletion) {
          // The last finalizer is gone from an object being deleted: the update completes the
          // deletion and, as deleteWithoutFinalizers, answers with the object the request made
          // (also when another such update deleted it first).
          try { await this.#storage.delete(key, kv.modRevision); } catch (e) { if (!isStorageError(e, 'NotFound')) throw e; }
          return { object: prepared.out!, created: false };
        }
        return { object: this.toSharedObject(await this.#storage.update(key, prepared.stored!, kv.modRevision)), created: false };
      } catch (e) {
        // Read again, as etcd3's GuaranteedUpdate does after a failed transaction: an object deleted
        // meanwhile is NotFound (or, where the strategy allows, created), one written meanwhile is a
        // Conflict for a caller who pinned a version, and is retried for one who did not.
        if (!isStorageError(e, 'Conflict') && !isStorageError(e, 'NotFound')) throw e;
      }
    }
    throw errors.conflict(this.qualified, name, 'too many concurrent updates; please try again');
  }

  /**
   * Storage's Preconditions.Check, which GuaranteedUpdate runs before anything else, so the answer
   * is the same Conflict whatever the body holds. A missing object is compared as the empty object
   * Store.Update's ignoreNotFound reads, so a PUT naming a uid never creates (create on update) nor
   * answers 404. The key is storage's own, except in a dry run, where DryRunnableStorage checks
   * with the registry's key, before the storage prefix is put in front of it.
   */
  #checkUidPrecondition(ctx: RequestContext, name: string, uid: string, kv: KeyValue | undefined): void {
    const stored = (kv?.value as ApiObject | undefined)?.metadata?.uid ?? '';
    if (uid === stored) return;
    const key = this.keyFor(ctx.namespace, name);
    const shown = ctx.dryRun ? key.slice(this.#opts.prefix.length) : key;
    throw errors.conflict(this.qualified, name, invalidObjErrorText(shown, uidPreconditionFailed(uid, stored)));
  }

  /** Everything an update needs to know of the new object is taken before validating admission sees it. */
  async #prepareUpdate(ctx: RequestContext, subresource: string, input: ApiObject, old: ApiObject, managed: boolean, stale: boolean):
    Promise<{ unchanged: boolean; out: ApiObject | undefined; completesDeletion: boolean; stored: JsonText | undefined }> {
    const strategy = this.#strategy(subresource);
    this.def.defaults?.(input);
    if (!managed) this.#manageFields(ctx, subresource, old, input);
    const mutate = this.#admission('UPDATE', ctx, subresource, old.metadata.name ?? '', input, old);
    await this.#admit('admitMutate', mutate);
    const obj = mutate.object ?? input;
    if (obj !== input) this.def.defaults?.(obj);
    // Store.Update compares versions after UpdatedObject, which runs mutating admission: a webhook
    // that changes metadata.resourceVersion makes the update a conflict, as the client's own would.
    const pinned = obj.metadata.resourceVersion;
    const name = old.metadata.name ?? '';
    if (pinned && pinned !== old.metadata.resourceVersion) throw errors.staleResourceVersion(this.qualified, name);
    if (!pinned && this.def.allowUnconditionalUpdate === false) {
      // As upstream's Store.Update: the uint64 0 Go prints as 0x0, the resource as the kind.
      throw errors.invalid({ group: this.def.group, kind: this.def.plural }, name, [
        { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' },
      ]);
    }
    // rest.BeforeUpdate: nor can it move the object to another namespace.
    ensureNamespaceMatches(this.namespaced, ctx.namespace, obj);
    if (this.namespaced) obj.metadata.namespace ||= old.metadata.namespace ?? '';
    obj.metadata.resourceVersion = old.metadata.resourceVersion!;
    const sctx = this.#strategyContext(ctx, subresource);
    // As rest.BeforeUpdate: the stored generation first, so that a strategy may bump it.
    if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation; else delete obj.metadata.generation;
    strategy.prepareForUpdate?.(sctx, obj, old);
    restoreSystemMeta(obj, old);
    const errs = [...validateObjectMetaUpdate(obj.metadata, old.metadata, this.namespaced), ...strategy.validateUpdate(sctx, obj, old)];
    if (errs.length) throw this.#invalid(old.metadata.name ?? '', errs);
    ctx.warnings.push(...(strategy.warnings?.(sctx, obj, old) ?? []));
    // A stale stored value (an old encryption key) is written again even unchanged: the rewrite
    // that migrates it to the key writes use now, as etcd3's GuaranteedUpdate.
    const unchanged = !stale && isDeepStrictEqual(this.#toStored(obj), this.#toStored(old));
    const completesDeletion = !!obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && !this.def.lifecycleDelete?.holdsDeletion(obj);
    // What is answered without being stored (a dry run, an update that deletes) is taken now.
    let out: ApiObject | undefined;
    let stored: JsonText | undefined;
    if (unchanged) {
      // Nothing is written.
    } else if (ctx.dryRun || completesDeletion) {
      out = this.#served(this.#ordered(structuredClone(obj)), old.metadata.resourceVersion!);
    } else {
      stored = this.#encode(obj);
    }
    await this.#admit('admitValidate', this.#admission('UPDATE', ctx, subresource, old.metadata.name ?? '', obj, old));
    return { unchanged, out, completesDeletion, stored };
  }

  /**
   * markAsDeleting with the finalizers the delete leaves: a resource that counts generations
   * counts the start of its deletion too; a deletionTimestamp already set stays unless it lies
   * ahead of now. Undefined when that changes nothing (GuaranteedUpdate then writes nothing).
   */
  #markAsDeleting(old: ApiObject, finalizers: string[] | undefined): ApiObject | undefined {
    const m = old.metadata;
    const now = this.#now();
    const deleting = !!m.deletionTimestamp;
    const deletionTimestamp = deleting && !(Date.parse(m.deletionTimestamp!) > now.getTime()) ? m.deletionTimestamp! : rfc3339(now);
    if (deletionTimestamp === m.deletionTimestamp && m.deletionGracePeriodSeconds === 0 && !finalizers) return undefined;
    const generation = !deleting && m.generation !== undefined && m.generation > 0 ? { generation: m.generation + 1 } : {};
    return {
      ...structuredClone(old),
      metadata: { ...m, ...generation, deletionTimestamp, deletionGracePeriodSeconds: 0, ...(finalizers ? { finalizers } : {}) },
    };
  }

  /** deletionFinalizersForGarbageCollection for this request: undefined when the finalizers stay as they are. */
  #gcFinalizers(ctx: RequestContext, old: ApiObject): string[] | undefined {
    if (!this.#opts.garbageCollection || this.def.garbageCollectionUnsupported) return undefined;
    const options = ctx.options && 'delete' in ctx.options ? ctx.options.delete : {};
    return deletionFinalizersForGarbageCollection(old.metadata.finalizers ?? [], options);
  }

  /**
   * What a lifecycle REST's first delete writes (namespace REST.Delete's GuaranteedUpdate): the
   * deletionTimestamp alone (no grace period), then the resource's own changes.
   */
  #markForLifecycle(ctx: RequestContext, old: ApiObject): ApiObject {
    const marked = { ...structuredClone(old), metadata: { ...structuredClone(old.metadata), deletionTimestamp: rfc3339(this.#now()) } };
    const options = ctx.options && 'delete' in ctx.options ? ctx.options.delete : {};
    this.def.lifecycleDelete!.mark(marked, options);
    return marked;
  }

  /**
   * Deletes one object. With finalizers present (after the garbage collector's are set as the
   * request's propagation asks) the object is only marked (deletionTimestamp) and returned. What
   * create, update and delete return is frozen (toSharedObject).
   */
  async delete(ctx: RequestContext, name: string, preconditions: { uid?: string; resourceVersion?: string } = {}):
    Promise<{ object: ApiObject; deleted: boolean }> {
    const key = this.keyFor(ctx.namespace, name);
    for (let attempt = 0; attempt < MAX_UPDATE_RETRIES; attempt++) {
      const kv = await this.#storage.get(key);
      if (!kv) throw errors.notFound(this.qualified, name);
      const old = this.#own(kv);
      const own = this.def.deletePreconditionsError?.(old, preconditions);
      if (own) throw own;
      // rest.BeforeDelete's checks, which name the object by its kind.
      const byKind = { group: this.def.group, resource: this.def.kind };
      if (preconditions.uid !== undefined && preconditions.uid !== (old.metadata.uid ?? '')) {
        throw errors.conflict(byKind, name, `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${old.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
      }
      if (preconditions.resourceVersion !== undefined && preconditions.resourceVersion !== old.metadata.resourceVersion) {
        throw errors.conflict(byKind, name, `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion ?? ''}). The object might have been modified`);
      }
      // Both phases, as upstream's AdmissionToValidateObjectDeleteFunc: the stored object is oldObject.
      const admission = this.#admission('DELETE', ctx, '', name, undefined, old);
      await this.#admit('admitMutate', admission);
      const lifecycle = this.def.lifecycleDelete;
      // A lifecycle REST answers a later delete unchanged while the object is held (a namespace's
      // spec.finalizers), as upstream's REST.Delete returns before calling the validating check.
      if (lifecycle && old.metadata.deletionTimestamp && lifecycle.holdsDeletion(old)) return { object: old, deleted: false };
      await this.#admit('admitValidate', admission);
      let held: boolean;
      let marked: ApiObject | undefined;
      if (lifecycle && !old.metadata.deletionTimestamp) {
        held = true;
        marked = this.#markForLifecycle(ctx, old);
      } else {
        // updateForGracefulDeletionAndFinalizers: the request's propagation may add or take off
        // the garbage collector's finalizers (also of an object being deleted already); with any
        // finalizer left the object is marked (or stays marked), with none it goes now.
        const finalizers = this.#gcFinalizers(ctx, old);
        held = (finalizers ?? old.metadata.finalizers ?? []).length > 0;
        marked = held ? this.#markAsDeleting(old, finalizers) : undefined;
      }
      // A dry run's GuaranteedUpdate answers with what the update would have written.
      if (ctx.dryRun) return { object: marked ? this.#served(this.#ordered(marked), old.metadata.resourceVersion!) : old, deleted: !held };
      if (marked || !held) this.#beforeWrite(ctx);
      try {
        if (marked) return { object: this.toSharedObject(await this.#storage.update(key, this.#encode(marked), kv.modRevision)), deleted: false };
        if (held) return { object: old, deleted: false };
        return { object: this.toSharedObject(await this.#storage.delete(key, kv.modRevision)), deleted: true };
      } catch (e) {
        if (isStorageError(e, 'NotFound')) throw errors.notFound(this.qualified, name);
        if (!isStorageError(e, 'Conflict')) throw e;
      }
    }
    throw errors.conflict(this.qualified, name, 'too many concurrent updates; please try again');
  }
}

/**
 * A review echoes its metadata: ObjectMeta's fields are omitempty but creationTimestamp, so the
 * zero values a review may carry (an empty name, generation 0, empty maps and lists) are not written.
 */
function omitEmptyMetadata(meta: ApiObject['metadata']): ApiObject['metadata'] {
  return Object.fromEntries(Object.entries(meta).filter(([k, v]) => k === 'creationTimestamp' || !isGoEmptyValue(v))) as ApiObject['metadata'];
}
