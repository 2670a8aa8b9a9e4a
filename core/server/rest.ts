// REST verbs for every registered resource: get, list, watch, create, update, patch, delete,
// deletecollection, and get/update/patch on subresources.
import type { Context } from 'koa';
import { errors, isStatusError, type StatusError } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';
import { unrecognizedMessage } from '../api/go-decode-errors.js';
import { pruneUnknownFields, scanJsonText, type NumberLiteral } from '../api/schema-fields.js';
import { applyGoNulls } from '../api/go-null.js';
import { goOrdered } from '../api/go-order.js';
import { goDecodedForm } from '../api/go-decoded-form.js';
import { PROTOBUF_MEDIA_TYPE, unwrap } from '../api/protobuf.js';
import type { UserInfo } from '../authn/user.js';
import type { Logger } from '../log.js';
import type { JsonSchema } from '../registry/resource.js';
import type { SubresourceCreate } from '../registry/strategy.js';
import { awaitRevision, listObjects, type ListOutput } from '../registry/list.js';
import { parseListOptions, parseResourceVersion, queryBool, type ListOptions } from '../registry/list-options.js';
import { escapeFieldValue, parseFieldSelector } from '../api/selectors/field-selector.js';
import type { RequestContext, ResourceStore } from '../registry/store.js';
import { writeOptionsOf, type RequestOptions } from '../admission/options.js';
import { decodeBody, mediaType, readBody } from './body.js';
import { parseYamlOffThread } from './yaml-off-thread.js';
import { yamlDuplicateKeys, yamlStrictError } from './yaml-strict.js';
import { requestAuditOf } from '../audit/request-audit.js';
import { isDryRun, META_MEDIA_TYPES, readDeleteOptions } from './delete-options.js';
import { ensureNamespaceMatches } from '../registry/namespace-match.js';
import { wipeObjectMetaSystemFields } from '../registry/object-meta.js';
import { negotiateOutput, negotiateWatchOutput, type Output } from './output-media-type.js';
import { asPartialObjectMetadata, partialListHead, partialObject } from './partial-metadata.js';
import { isPrettyPrint } from './pretty-print.js';
import { applyPatchBody, PATCH_TYPES } from './patch.js';
import type { RequestInfo } from './request-info.js';
import { sendJson, sendJsonList, setWarnings } from './respond.js';
import { buildTable, tableRequested } from './table.js';
import { serveWatch } from './watch-handler.js';
import type { WatchMetrics } from '../metrics/apiserver-watch.js';
import { subresourceVerbs } from './subresource-verbs.js';
import { checkName } from './check-name.js';
import { validateWriteOptions } from './write-options.js';
import { answerForm, fromWireGroup, type AnswerForm } from './wire-alias.js';
import { finishRequest } from './finisher.js';
import { writeContext } from './write-deadline.js';
import { typeChecker } from './type-checkers.js';
import { deleteListed } from '../registry/delete-collection.js';

export interface RestDeps {
  now(): Date;
  /** Watch timeout when the client gives none: random in [min, 2*min) seconds. */
  minRequestTimeoutSeconds: number;
  /** How often a watch that allows bookmarks gets one (default a minute, as the watch cache's). */
  bookmarkIntervalMs?: number;
  logger: Logger;
  /** Aborted when the server shuts down, ending open watches. */
  shutdown: AbortSignal;
  /**
   * Called once the request has a route (its path, subresource and method are served): what
   * upstream's InstrumentRouteFunc wraps. A path with no route (404, 405) never gets here, so its
   * caller-chosen parts (a subresource) never become metric labels.
   */
  routed?: () => void;
  /** Where each watch records apiserver_longrunning_requests and its events (core/metrics/apiserver-watch.ts). */
  watchMetrics?: WatchMetrics;
  /** --delete-collection-workers: how many of a deletecollection's deletes run at once (default 1). */
  deleteCollectionWorkers?: number;
}

/** What a request body must be: the resource's own kind, or a subresource's (TokenRequest). */
export interface BodyKind {
  readonly kind: string;
  readonly version: string;
  readonly apiVersion: string;
  /** Further apiVersions a body may name (kept on the decoded object, so the answer echoes it). */
  readonly alsoAccepts?: readonly string[];
  readonly schema: JsonSchema;
}

const storeKinds = new WeakMap<ResourceStore, BodyKind>();
const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

function bodyKindOf(target: ResourceStore | BodyKind): BodyKind {
  if (!('def' in target)) return target;
  let k = storeKinds.get(target);
  if (!k) storeKinds.set(target, (k = { kind: target.def.kind, version: target.def.version, apiVersion: target.apiVersion, schema: target.def.schema }));
  return k;
}

/**
 * Decodes a full object body for `store`: syntax (400), apiVersion/kind (400), types (400),
 * then unknown and duplicate fields per fieldValidation (400 Strict, Warning headers Warn).
 * Times and bytes come out as upstream stores them (go-decoded-form.ts).
 */
export function decodeObject(target: ResourceStore | BodyKind, value: unknown, json: string | undefined,
  validation: 'Strict' | 'Warn' | 'Ignore', warnings: string[],
  o: { fail?: (cause: string) => Error; priorStrictErrors?: readonly string[]; numbers?: readonly NumberLiteral[] } = {}): ApiObject {
  const { fail } = o;
  const t = bodyKindOf(target);
  const what = `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${what}: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct`);
  const obj = value as ApiObject;
  // Most bodies hold no null at all; the walk is for those that do.
  if (json === undefined || json.includes('null')) applyGoNulls(obj, t.schema);
  const accepted = obj.apiVersion !== undefined && t.alsoAccepts?.includes(obj.apiVersion) ? obj.apiVersion : undefined;
  if (obj.apiVersion !== undefined && obj.apiVersion !== t.apiVersion && !accepted) {
    throw errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${t.apiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== t.kind) {
    throw errors.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${t.kind})`);
  }
  const scan = json ? scanJsonText(json) : undefined;
  const typeError = typeChecker(t.schema).check(obj, scan?.numbers ?? o.numbers);
  if (typeError) throw fail ? fail(typeError) : errors.badRequest(`${what}: ${typeError}`);
  // Every write decodes here (create, update, each patch type, subresources, protobuf bodies), so
  // times and bytes take the form upstream's decode and encode leave them in before anything reads them.
  goDecodedForm(obj, t.schema);
  obj.metadata ??= {};
  const problems = [
    ...(o.priorStrictErrors ?? []),
    ...pruneUnknownFields(obj, t.schema).map((p) => `unknown field "${p}"`),
    ...(scan ? scan.duplicates.map((p) => `duplicate field "${p}"`) : []),
  ];
  if (problems.length && validation === 'Strict') {
    // A create's or update's goes through transformDecodeError as its other decode errors do.
    const cause = `strict decoding error: ${problems.join(', ')}`;
    throw fail ? fail(cause) : errors.badRequest(`${what}: ${cause}`);
  }
  // One by one: a body of a million unknown fields would overflow the stack as spread arguments
  // (the warning recorder keeps only what fits its limit).
  if (validation === 'Warn') for (const p of problems) warnings.push(p);
  obj.apiVersion = accepted ?? t.apiVersion;
  obj.kind = t.kind;
  dropEmptyMetaCollections(obj);
  return obj;
}

/**
 * ObjectMeta's maps and lists are `omitempty` in Go: a patch that removes the last label or
 * annotation (`{"metadata":{"annotations":{"x":null}}}`) leaves no `annotations: {}` behind.
 */
function dropEmptyMetaCollections(obj: ApiObject): void {
  const meta = obj.metadata as Record<string, unknown>;
  // managedFields are the field manager's: `[]` asks it to reset them (isResetManagedFields).
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    const v = meta[key];
    if (Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0) delete meta[key];
  }
}

/** PatchOptions.Force as the parameter codec reads it (Convert_Slice_string_To_Pointer_bool: false only for "0" and "false" in any case). */
const forceOption = (query: URLSearchParams): boolean => queryBool(query.get('force')) === true;

/** LogRequestPatch keeps the patch's bytes, which a JSON event carries as the JSON they are. */
function patchAsSent(body: Buffer): unknown {
  try { return JSON.parse(body.toString('utf8')); } catch { return body.toString('utf8'); }
}

/** Reads and decodes a whole-object body (POST, PUT): JSON or YAML, 415 for anything else. */
async function readObject(ctx: Context, target: ResourceStore | BodyKind, validation: 'Strict' | 'Warn' | 'Ignore', warnings: string[],
  decodeProtobuf?: (raw: Buffer) => ApiObject): Promise<ApiObject> {
  const t = bodyKindOf(target);
  const type = mediaType(ctx.get('content-type') || undefined);
  const what = `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}`;
  if (type === PROTOBUF_MEDIA_TYPE && decodeProtobuf) {
    const env = unwrap(await readBody(ctx.req, ctx.state.signal as AbortSignal | undefined), what);
    let value: ApiObject;
    try { value = decodeProtobuf(env.raw); } catch (e) { throw errors.badRequest(`${what}: ${(e as Error).message}`); }
    const obj = decodeObject(t, { ...value, apiVersion: env.apiVersion || t.apiVersion, kind: env.kind || t.kind }, undefined, validation, warnings);
    requestAuditOf(ctx)?.logRequestObject(obj);
    return obj;
  }
  if (type !== 'application/json' && type !== 'application/yaml') {
    throw errors.unsupportedMediaType(type, ['application/json', 'application/yaml', ...(decodeProtobuf ? [PROTOBUF_MEDIA_TYPE] : [])]);
  }
  const raw = await readBody(ctx.req, ctx.state.signal as AbortSignal | undefined);
  await parseYamlOffThread(raw, type, ctx.state.signal as AbortSignal | undefined);
  const doc = decodeBody(raw, type, (cause) => errors.badRequest(unrecognizedMessage(t.kind, cause, raw)));
  // The YAML serializer's strict decode runs YAMLToJSONStrict on the body first: a key repeated in
  // one map is its first strict error (the conversion to JSON kept only the last value).
  const duplicates = type === 'application/yaml' && validation !== 'Ignore' ? yamlDuplicateKeys(raw) : [];
  const obj = decodeObject(t, doc.value, doc.json, validation, warnings, duplicates.length ? { priorStrictErrors: [yamlStrictError(duplicates)] } : {});
  requestAuditOf(ctx)?.logRequestObject(obj);
  return obj;
}

async function sendList(ctx: Context, store: ResourceStore, query: URLSearchParams, out: ListOutput, deps: RestDeps, form: AnswerForm): Promise<void> {
  const items = out.items.map(form);
  const meta = {
    resourceVersion: out.resourceVersion,
    ...(out.continue ? { continue: out.continue } : {}),
    ...(out.remainingItemCount !== undefined ? { remainingItemCount: out.remainingItemCount } : {}),
  };
  const table = tableRequested(ctx.get('accept'), query);
  if (table) return sendJson(ctx, 200, buildTable(store.def, items, table, meta, deps.now()));
  const partial = (ctx.state.output as Output | undefined)?.partial;
  if (partial) {
    return await sendJsonList(ctx, partialListHead(store.def, partial, meta), items.map((o) => asPartialObjectMetadata(o, partial.apiVersion)));
  }
  const { apiVersion } = form({ kind: store.def.listKind, apiVersion: store.apiVersion, metadata: {} });
  await sendJsonList(ctx, { kind: store.def.listKind, apiVersion: apiVersion!, metadata: meta }, items);
}

function respondObject(ctx: Context, store: ResourceStore, code: number, answered: ApiObject, deps: RestDeps, form: AnswerForm): void {
  const obj = form(answered);
  const table = tableRequested(ctx.get('accept'), new URLSearchParams(ctx.querystring));
  const partial = (ctx.state.output as Output | undefined)?.partial;
  if (table) sendJson(ctx, code, buildTable(store.def, [obj], table, { resourceVersion: obj.metadata.resourceVersion ?? '' }, deps.now()));
  else if (partial) sendJson(ctx, code, partialObject(store.def, partial, obj));
  else sendJson(ctx, code, obj);
}

/** A write's work, run as upstream's FinishRequest runs it (finisher.ts). */
type Finish = <T>(fn: () => Promise<T>) => Promise<T>;

const ITEM_VERBS = ['get', 'update', 'patch', 'delete'];
const COLLECTION_VERBS = ['list', 'watch', 'create', 'deletecollection'];

/**
 * A method the installer registered no route for: go-restful answers 405 where the path has routes
 * for other methods (serviceErrorHandler's generic Status), 404 where it has none.
 */
function noRoute(info: RequestInfo, allowed: readonly string[], subresource: boolean): StatusError {
  const atPath = subresource ? allowed : (info.name ? ITEM_VERBS : COLLECTION_VERBS).filter((v) => allowed.includes(v));
  return atPath.length > 0 ? errors.noRouteForMethod() : errors.pathNotFound();
}

/**
 * `aliasApiVersion`: the request came under the resource's wire alias (core/server/wire-alias.ts),
 * so a body may name that apiVersion too.
 */
export async function serveResource(ctx: Context, store: ResourceStore, info: RequestInfo, user: UserInfo, deps: RestDeps,
  aliasApiVersion?: string): Promise<void> {
  const body: ResourceStore | BodyKind = aliasApiVersion ? { ...bodyKindOf(store), alsoAccepts: [aliasApiVersion] } : store;
  const form = answerForm(store, aliasApiVersion);
  const query = new URLSearchParams(ctx.querystring);
  const warnings: string[] = [...(ctx.state.authenticationWarnings ?? [])];
  const sub = info.subresource;
  const subDef = sub ? store.def.subresources?.find((s) => s.name === sub) : undefined;
  if (sub && !subDef) throw errors.pathNotFound();
  if (info.parts.length > 3) throw errors.pathNotFound();
  // A named path needs the namespace; a list's name comes from its field selector (request-info.ts).
  if (store.namespaced && !info.namespace && info.parts.length > 1) throw errors.pathNotFound();
  // /api/v1/namespaces/{name} names the namespace itself (RequestInfo puts it in `namespace` too).
  if (!store.namespaced && info.namespace && !(store.def.group === '' && store.def.plural === 'namespaces')) throw errors.pathNotFound();
  // A /watch/ path is a route for GET only (the installer's WATCH and WATCHLIST); RequestInfo calls
  // every method on it a watch, go-restful answers the others 405.
  if (info.verb === 'watch' && ctx.method !== 'GET' && ctx.method !== 'HEAD') throw errors.noRouteForMethod();
  // The answer's media type is agreed on before anything is done: a write whose answer cannot be
  // sent (406) must not happen. A watch needs a media type with a stream form.
  // Kept for the answer (respond.ts), so the Accept header is read once.
  if (info.verb === 'watch') ctx.state.watchOutput = negotiateWatchOutput(ctx.get('accept') || undefined);
  else ctx.state.output = negotiateOutput(ctx.get('accept') || undefined, 'resource', isPrettyPrint(ctx));
  // Upstream's installer gives a namespaced resource's all-namespaces path GET only, and no
  // collection path PUT or PATCH: go-restful answers other methods before any handler runs.
  if (!info.name && !sub && info.parts.length === 1 && (info.verb === 'update' || info.verb === 'patch' || (store.namespaced && !info.namespace && info.verb !== 'list' && info.verb !== 'watch'))) {
    throw errors.noRouteForMethod();
  }
  const verbs = store.def.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const allowed = subDef ? subresourceVerbs(subDef) : verbs;
  if (!allowed.includes(info.verb)) throw noRoute(info, allowed, subDef !== undefined);
  deps.routed?.();
  const requested = ctx.state as { deadline?: number; signal?: AbortSignal };
  // A write's work has 34 s at most (requestTimeoutUpperBound); reads keep the request's deadline.
  const bounded = WRITE_VERBS.has(info.verb) ? writeContext(requested.signal, requested.deadline) : undefined;
  const { deadline, signal } = bounded ?? requested;
  const audit = requestAuditOf(ctx);
  const rctx = (dryRun: boolean, options?: RequestOptions): RequestContext =>
    ({ user, namespace: info.namespace, dryRun, warnings, userAgent: ctx.get('user-agent'), ...(options ? { options } : {}), ...(deadline !== undefined ? { deadline } : {}), ...(signal ? { signal } : {}), ...(audit ? { audit } : {}) });
  // The write handlers' FinishRequest: what it wraps upstream (admission and storage) is wrapped here.
  const finish = <T>(fn: () => Promise<T>): Promise<T> => finishRequest(signal, deps.logger, fn);

  try {
    switch (info.verb) {
      case 'get': {
        // GetOptions carry only resourceVersion (a field selector is a list's, ignored here as
        // GetResource ignores it). A version past the store's is the cacher's Get: wait up to 3 s
        // for it, then the 504 Too large resource version.
        const rv = parseResourceVersion(query.get('resourceVersion') ?? undefined);
        if (rv) await awaitRevision(store.storage, rv);
        const obj = await store.get(info.namespace, info.name);
        return respondObject(ctx, store, 200, obj, deps, form);
      }
      case 'list': {
        const o = parseListOptions(query);
        return sendList(ctx, store, query, await listObjects(store, info.namespace, o), deps, form);
      }
      case 'watch':
        return await serveWatch(ctx, store, info, watchOptions(info, query), deps, form);
      case 'create': {
        if (subDef?.create) return await serveSubresourceCreate(ctx, store, subDef.create, info, query, rctx, warnings, finish);
        if (info.name) throw noRoute(info, allowed, false);
        const { dryRun, validation } = validateWriteOptions('CreateOptions', query);
        const obj = await readObject(ctx, body, validation, warnings, store.def.decodeProtobuf?.bind(store.def));
        if (aliasApiVersion) fromWireGroup(store, obj, aliasApiVersion);
        // The create handler's WipeObjectMetaSystemFields and EnsureObjectNamespaceMatchesRequestNamespace,
        // before admission: a mutating webhook sees the namespace and none of the client's system
        // fields (the reviews' "metadata must be empty" is checked after).
        wipeObjectMetaSystemFields(obj);
        ensureNamespaceMatches(store.namespaced, info.namespace, obj);
        if (store.def.review) {
          // Answered, not stored: put in Go's key order here, as the store does with what it keeps.
          const answer = await finish(() => store.review(rctx(dryRun, writeOptionsOf(query)), obj));
          return respondObject(ctx, store, 201, goOrdered(answer, store.def.schema) as ApiObject, deps, form);
        }
        const created = await finish(() => store.create(rctx(dryRun, writeOptionsOf(query)), obj));
        return respondObject(ctx, store, 201, created, deps, form);
      }
      case 'update': {
        const { dryRun, validation } = validateWriteOptions('UpdateOptions', query);
        const obj = await readObject(ctx, body, validation, warnings, store.def.decodeProtobuf?.bind(store.def));
        if (aliasApiVersion) fromWireGroup(store, obj, aliasApiVersion);
        ensureNamespaceMatches(store.namespaced, info.namespace, obj);
        checkName(obj, info.name);
        const result = await finish(() => store.update(rctx(dryRun, writeOptionsOf(query)), info.name, sub, obj));
        return respondObject(ctx, store, result.created ? 201 : 200, result.object, deps, form);
      }
      case 'patch': {
        // PatchResource: the media type first, then the body is read, then the options are checked.
        const type = mediaType(ctx.get('content-type') || undefined);
        if (!PATCH_TYPES.includes(type)) throw errors.unsupportedMediaType(type, PATCH_TYPES);
        const patchBody = await readBody(ctx.req, ctx.state.signal as AbortSignal | undefined);
        await parseYamlOffThread(patchBody, type, ctx.state.signal as AbortSignal | undefined);
        requestAuditOf(ctx)?.logRequestPatch(patchAsSent(patchBody));
        const { dryRun, validation } = validateWriteOptions('PatchOptions', query, type);
        const result = await finish(() => applyPatchBody({
          store, ctx: rctx(dryRun, writeOptionsOf(query)), name: info.name, subresource: sub, type, body: patchBody, validation, warnings,
          force: forceOption(query),
          ...(aliasApiVersion ? { aliasApiVersion } : {}),
        }));
        return respondObject(ctx, store, result.created ? 201 : 200, result.object, deps, form);
      }
      case 'delete':
        return await serveDelete(ctx, store, info, rctx, query, form, finish);
      case 'deletecollection':
        return await serveDeleteCollection(ctx, store, info, rctx, query, deps, form, finish);
      default:
        throw errors.noRouteForMethod();
    }
  } finally {
    bounded?.release();
    setWarnings(ctx, warnings, deps.logger);
  }
}

/** POST to a named object's subresource (serviceaccounts/{name}/token): answered, not stored. */
async function serveSubresourceCreate(ctx: Context, store: ResourceStore, create: SubresourceCreate, info: RequestInfo,
  query: URLSearchParams, rctx: (dryRun: boolean, options?: RequestOptions) => RequestContext, warnings: string[], finish: Finish): Promise<void> {
  const { dryRun, validation } = validateWriteOptions('CreateOptions', query);
  const kind: BodyKind = {
    kind: create.kind, version: create.version, apiVersion: create.group ? `${create.group}/${create.version}` : create.version,
    ...(create.alsoAccepts ? { alsoAccepts: create.alsoAccepts } : {}), schema: create.schema,
  };
  const obj = await readObject(ctx, kind, validation, warnings, create.decodeProtobuf?.bind(create));
  const parent = await store.get(info.namespace, info.name);
  const answer = await finish(async () => {
    const admitted = await store.admitSubresourceCreate(rctx(dryRun, writeOptionsOf(query)), info.name, info.subresource, create.kind, obj);
    return create.create({ ...rctx(dryRun), name: info.name, parent }, admitted);
  });
  sendJson(ctx, 201, goOrdered(answer, create.schema));
}

/**
 * A watch of one object (the legacy /watch/{resource}/{name} path) is a watch of the list with
 * metadata.name pinned, as ListResource makes it; a field selector must pin the same name.
 */
function watchOptions(info: RequestInfo, query: URLSearchParams): ListOptions {
  const o = parseListOptions(query);
  if (!info.name) return o;
  if (!o.fieldSelector) return { ...o, fieldSelector: `metadata.name=${escapeFieldValue(info.name)}` };
  if (parseFieldSelector(o.fieldSelector).requiredValue('metadata.name') !== info.name) {
    throw errors.badRequest('fieldSelector metadata.name doesn\'t match requested name');
  }
  return o;
}

async function serveDelete(ctx: Context, store: ResourceStore, info: RequestInfo,
  rctx: (dryRun: boolean, options?: RequestOptions) => RequestContext, query: URLSearchParams, form: AnswerForm, finish: Finish): Promise<void> {
  const opts = await readDeleteOptions(ctx, query, META_MEDIA_TYPES);
  const { object, deleted } = await finish(() => store.delete(rctx(isDryRun(opts), { delete: opts }), info.name, opts.preconditions));
  // DeleteResource's 202: the object stays (finalizers) and the caller asked for cascading deletion.
  if (!deleted) return sendJson(ctx, opts.orphanDependents === false ? 202 : 200, form(object));
  if (store.def.returnDeletedObject) return sendJson(ctx, 200, form(object));
  // finalizeDelete's Status: Kind is the resource, and StatusDetails' group is omitempty.
  sendJson(ctx, 200, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: info.name, ...(store.def.group ? { group: store.def.group } : {}), kind: store.def.plural, uid: object.metadata.uid ?? '' },
  });
}

/**
 * Store.DeleteCollection: deletes what the list selects, each as a DELETE with the same options
 * (an object gone meanwhile is skipped), by --delete-collection-workers at once, and answers with
 * that list as it was read.
 */
async function serveDeleteCollection(ctx: Context, store: ResourceStore, info: RequestInfo,
  rctx: (dryRun: boolean, options?: RequestOptions) => RequestContext, query: URLSearchParams, deps: RestDeps, form: AnswerForm, finish: Finish): Promise<void> {
  const o = parseListOptions(query);
  const opts = await readDeleteOptions(ctx, query, store.def.decodeProtobuf ? META_MEDIA_TYPES : META_MEDIA_TYPES.filter((t) => t !== PROTOBUF_MEDIA_TYPE));
  const listed = await finish(async () => {
    const found = await listObjects(store, info.namespace, { ...o, watch: false });
    await deleteListed(found.items, deps.deleteCollectionWorkers ?? 1, async (item) => {
      try { await store.delete(rctx(isDryRun(opts), { delete: opts }), item.metadata.name ?? '', opts.preconditions); } catch (e) {
        if (!(isStatusError(e) && e.reason === 'NotFound')) throw e;
      }
    });
    return found;
  });
  await sendList(ctx, store, query, listed, deps, form);
}
