// REST verbs for every registered resource: get, list, watch, create, update, patch, delete,
// deletecollection, and get/update/patch on subresources.
import type { Context } from 'koa';
import { errors, isStatusError, StatusError } from '../api/errors.js';
import { aggregateFieldErrors, fieldError, type FieldError } from '../api/field-errors.js';
import type { ApiObject } from '../api/meta.js';
import { unrecognizedMessage } from '../api/go-decode-errors.js';
import { pruneUnknownFields, scanJsonText, type NumberLiteral } from '../api/schema-fields.js';
import { applyGoNulls } from '../api/go-null.js';
import { goOrdered } from '../api/go-order.js';
import { SchemaTypeChecker } from '../api/schema-types.js';
import { canonicalTimes } from '../api/go-time-fields.js';
import { PROTOBUF_MEDIA_TYPE, unwrap } from '../api/protobuf.js';
import type { UserInfo } from '../authn/user.js';
import type { Logger } from '../log.js';
import type { JsonSchema } from '../registry/resource.js';
import type { SubresourceCreate } from '../registry/strategy.js';
import { listObjects } from '../registry/list.js';
import { parseListOptions } from '../registry/list-options.js';
import type { RequestContext, ResourceStore } from '../registry/store.js';
import { decodeBody, mediaType, readBody } from './body.js';
import { applyPatchBody, PATCH_TYPES } from './patch.js';
import type { RequestInfo } from './request-info.js';
import { sendJson, setWarnings } from './respond.js';
import { buildTable, tableRequested } from './table.js';
import { serveWatch } from './watch-handler.js';
import { subresourceVerbs } from './subresource-verbs.js';

export interface RestDeps {
  now(): Date;
  /** Watch timeout when the client gives none: random in [min, 2*min) seconds. */
  minRequestTimeoutSeconds: number;
  /** How often a watch that allows bookmarks gets one (default a minute, as the watch cache's). */
  bookmarkIntervalMs?: number;
  logger: Logger;
  /** Aborted when the server shuts down, ending open watches. */
  shutdown: AbortSignal;
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
function bodyKindOf(target: ResourceStore | BodyKind): BodyKind {
  if (!('def' in target)) return target;
  let k = storeKinds.get(target);
  if (!k) storeKinds.set(target, (k = { kind: target.def.kind, version: target.def.version, apiVersion: target.apiVersion, schema: target.def.schema }));
  return k;
}

const typeCheckers = new WeakMap<JsonSchema, SchemaTypeChecker>();
function typeChecker(schema: JsonSchema): SchemaTypeChecker {
  let c = typeCheckers.get(schema);
  if (!c) typeCheckers.set(schema, (c = new SchemaTypeChecker(schema)));
  return c;
}

function optionsInvalid(kind: string, errs: FieldError[]): StatusError {
  return new StatusError({
    code: 422, reason: 'Invalid', message: `${kind}.meta.k8s.io "" is invalid: ${aggregateFieldErrors(errs)}`,
    details: { group: 'meta.k8s.io', kind, causes: errs.map((e) => ({ reason: e.type, message: e.message, field: e.field })) },
  });
}

function dryRunOf(values: string[], kind: string): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw optionsInvalid(kind, [fieldError.notSupported('dryRun', values, ['All'])]);
}

function fieldValidationOf(query: URLSearchParams, kind: string): 'Strict' | 'Warn' | 'Ignore' {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw optionsInvalid(kind, [fieldError.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}

/**
 * Decodes a full object body for `store`: syntax (400), apiVersion/kind (400), types (400),
 * then unknown and duplicate fields per fieldValidation (400 Strict, Warning headers Warn).
 * Times come out as upstream stores them (go-time-fields.ts).
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
  // times take the form upstream's decode and encode leave them in before anything reads them.
  canonicalTimes(obj, t.schema);
  obj.metadata ??= {};
  const problems = [
    ...(o.priorStrictErrors ?? []),
    ...pruneUnknownFields(obj, t.schema).map((p) => `unknown field "${p}"`),
    ...(scan ? scan.duplicates.map((p) => `duplicate field "${p}"`) : []),
  ];
  if (problems.length && validation === 'Strict') {
    const cause = `strict decoding error: ${problems.join(', ')}`;
    throw fail ? fail(cause) : errors.badRequest(cause);
  }
  if (validation === 'Warn') warnings.push(...problems);
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
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields']) {
    const v = meta[key];
    if (Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0) delete meta[key];
  }
}

/** Reads and decodes a whole-object body (POST, PUT): JSON or YAML, 415 for anything else. */
async function readObject(ctx: Context, target: ResourceStore | BodyKind, validation: 'Strict' | 'Warn' | 'Ignore', warnings: string[],
  decodeProtobuf?: (raw: Buffer) => ApiObject): Promise<ApiObject> {
  const t = bodyKindOf(target);
  const type = mediaType(ctx.get('content-type') || undefined);
  const what = `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}`;
  if (type === PROTOBUF_MEDIA_TYPE && decodeProtobuf) {
    const env = unwrap(await readBody(ctx.req), what);
    let value: ApiObject;
    try { value = decodeProtobuf(env.raw); } catch (e) { throw errors.badRequest(`${what}: ${(e as Error).message}`); }
    return decodeObject(t, { ...value, apiVersion: env.apiVersion || t.apiVersion, kind: env.kind || t.kind }, undefined, validation, warnings);
  }
  if (type !== 'application/json' && type !== 'application/yaml') {
    throw errors.unsupportedMediaType(type, ['application/json', 'application/yaml', ...(decodeProtobuf ? [PROTOBUF_MEDIA_TYPE] : [])]);
  }
  const raw = await readBody(ctx.req);
  const doc = decodeBody(raw, type, (cause) => errors.badRequest(unrecognizedMessage(t.kind, cause, raw)));
  return decodeObject(t, doc.value, doc.json, validation, warnings);
}

function respondObject(ctx: Context, store: ResourceStore, code: number, obj: ApiObject, deps: RestDeps): void {
  const table = tableRequested(ctx.get('accept'), new URLSearchParams(ctx.querystring));
  if (table) sendJson(ctx, code, buildTable(store.def, [obj], table, { resourceVersion: obj.metadata.resourceVersion ?? '' }, deps.now()));
  else sendJson(ctx, code, obj);
}

/** A body sent under the wire alias becomes the resource's own: its apiVersion, then the resource's conversion. */
function fromWireGroup(store: ResourceStore, obj: ApiObject): void {
  obj.apiVersion = store.apiVersion;
  store.def.fromWireGroup?.(obj);
}

/**
 * `aliasApiVersion`: the request came under the resource's wire alias (core/server/wire-alias.ts),
 * so a body may name that apiVersion too.
 */
export async function serveResource(ctx: Context, store: ResourceStore, info: RequestInfo, user: UserInfo, deps: RestDeps,
  aliasApiVersion?: string): Promise<void> {
  const body: ResourceStore | BodyKind = aliasApiVersion ? { ...bodyKindOf(store), alsoAccepts: [aliasApiVersion] } : store;
  const query = new URLSearchParams(ctx.querystring);
  const warnings: string[] = [];
  const sub = info.subresource;
  const subDef = sub ? store.def.subresources?.find((s) => s.name === sub) : undefined;
  if (sub && !subDef) throw errors.pathNotFound();
  if (info.parts.length > 3) throw errors.pathNotFound();
  // A named path needs the namespace; a list's name comes from its field selector (request-info.ts).
  if (store.namespaced && !info.namespace && info.parts.length > 1) throw errors.pathNotFound();
  // /api/v1/namespaces/{name} names the namespace itself (RequestInfo puts it in `namespace` too).
  if (!store.namespaced && info.namespace && !(store.def.group === '' && store.def.plural === 'namespaces')) throw errors.pathNotFound();
  // Upstream's installer gives a namespaced resource's all-namespaces path GET only, and no
  // collection path PUT or PATCH: go-restful answers other methods before any handler runs.
  if (!info.name && !sub && info.parts.length === 1 && (info.verb === 'update' || info.verb === 'patch' || (store.namespaced && !info.namespace && info.verb !== 'list' && info.verb !== 'watch'))) {
    throw errors.noRouteForMethod();
  }
  const verbs = store.def.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const allowed = subDef ? subresourceVerbs(subDef) : verbs;
  if (!allowed.includes(info.verb)) throw errors.methodNotAllowed(info.verb === 'deletecollection' ? 'deletecollection' : info.verb, store.qualified);
  const rctx = (dryRun: boolean): RequestContext => ({ user, namespace: info.namespace, dryRun, warnings });

  try {
    switch (info.verb) {
      case 'get': {
        const obj = await store.get(info.namespace, info.name);
        const fs = query.get('fieldSelector');
        if (fs && !new RegExp(`(^|,)metadata\\.name==?${info.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|,)`).test(fs)) {
          throw errors.badRequest('fieldSelector metadata.name doesn\'t match requested name');
        }
        return respondObject(ctx, store, 200, obj, deps);
      }
      case 'list': {
        const o = parseListOptions(query);
        const out = await listObjects(store, info.namespace, o);
        const meta = {
          resourceVersion: out.resourceVersion,
          ...(out.continue ? { continue: out.continue } : {}),
          ...(out.remainingItemCount !== undefined ? { remainingItemCount: out.remainingItemCount } : {}),
        };
        const table = tableRequested(ctx.get('accept'), query);
        if (table) return sendJson(ctx, 200, buildTable(store.def, out.items, table, meta, deps.now()));
        return sendJson(ctx, 200, { kind: store.def.listKind, apiVersion: store.apiVersion, metadata: meta, items: out.items });
      }
      case 'watch':
        return await serveWatch(ctx, store, info, parseListOptions(query), deps);
      case 'create': {
        if (subDef?.create) return await serveSubresourceCreate(ctx, store, subDef.create, info, query, rctx, warnings);
        if (info.name) throw errors.methodNotAllowed('create', store.qualified);
        const dryRun = dryRunOf(query.getAll('dryRun'), 'CreateOptions');
        const obj = await readObject(ctx, body, fieldValidationOf(query, 'CreateOptions'), warnings, store.def.decodeProtobuf?.bind(store.def));
        if (aliasApiVersion) fromWireGroup(store, obj);
        // Answered, not stored: put in Go's key order here, as the store does with what it keeps.
        if (store.def.review) return respondObject(ctx, store, 201, goOrdered(await store.def.review({ user, namespace: info.namespace }, obj), store.def.schema) as ApiObject, deps);
        if (store.namespaced && obj.metadata.namespace && obj.metadata.namespace !== info.namespace) {
          throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
        }
        const created = await store.create(rctx(dryRun), obj);
        return respondObject(ctx, store, 201, created, deps);
      }
      case 'update': {
        const dryRun = dryRunOf(query.getAll('dryRun'), 'UpdateOptions');
        const obj = await readObject(ctx, body, fieldValidationOf(query, 'UpdateOptions'), warnings, store.def.decodeProtobuf?.bind(store.def));
        if (aliasApiVersion) fromWireGroup(store, obj);
        if (obj.metadata.name !== undefined && obj.metadata.name !== info.name) {
          throw errors.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${info.name})`);
        }
        obj.metadata.name = info.name;
        const result = await store.update(rctx(dryRun), info.name, sub, obj);
        return respondObject(ctx, store, result.created ? 201 : 200, result.object, deps);
      }
      case 'patch': {
        const dryRun = dryRunOf(query.getAll('dryRun'), 'PatchOptions');
        const validation = fieldValidationOf(query, 'PatchOptions');
        const type = mediaType(ctx.get('content-type') || undefined);
        if (!PATCH_TYPES.includes(type)) throw errors.unsupportedMediaType(type, PATCH_TYPES);
        const body = await readBody(ctx.req);
        const result = await applyPatchBody({ store, ctx: rctx(dryRun), name: info.name, subresource: sub, type, body, query, validation, warnings });
        return respondObject(ctx, store, result.created ? 201 : 200, result.object, deps);
      }
      case 'delete':
        return await serveDelete(ctx, store, info, rctx, query);
      case 'deletecollection': {
        const o = parseListOptions(query);
        const opts = await deleteOptions(ctx, query);
        const listed = await listObjects(store, info.namespace, { ...o, watch: false });
        for (const item of listed.items) {
          try { await store.delete(rctx(opts.dryRun), item.metadata.name ?? ''); } catch (e) {
            if (!(isStatusError(e) && e.reason === 'NotFound')) throw e;
          }
        }
        return sendJson(ctx, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
      }
      default:
        throw errors.methodNotAllowed(info.verb, store.qualified);
    }
  } finally {
    setWarnings(ctx, warnings);
  }
}

/** POST to a named object's subresource (serviceaccounts/{name}/token): answered, not stored. */
async function serveSubresourceCreate(ctx: Context, store: ResourceStore, create: SubresourceCreate, info: RequestInfo,
  query: URLSearchParams, rctx: (dryRun: boolean) => RequestContext, warnings: string[]): Promise<void> {
  const dryRun = dryRunOf(query.getAll('dryRun'), 'CreateOptions');
  const kind: BodyKind = {
    kind: create.kind, version: create.version, apiVersion: create.group ? `${create.group}/${create.version}` : create.version,
    ...(create.alsoAccepts ? { alsoAccepts: create.alsoAccepts } : {}), schema: create.schema,
  };
  const obj = await readObject(ctx, kind, fieldValidationOf(query, 'CreateOptions'), warnings, create.decodeProtobuf?.bind(create));
  const parent = await store.get(info.namespace, info.name);
  const admitted = await store.admitSubresourceCreate(rctx(dryRun), info.name, info.subresource, create.kind, obj);
  const answer = await create.create({ ...rctx(dryRun), name: info.name, parent }, admitted);
  sendJson(ctx, 201, goOrdered(answer, create.schema));
}

interface DeleteOpts { dryRun: boolean; preconditions: { uid?: string; resourceVersion?: string } }

async function deleteOptions(ctx: Context, query: URLSearchParams): Promise<DeleteOpts> {
  const raw = await readBody(ctx.req);
  let body: Record<string, unknown> = {};
  if (raw.length) {
    // Upstream hands the decoder's own error to the client unwrapped, as a 500 with no reason;
    // it is the client's mistake, so plat answers 400 BadRequest with the same words.
    const doc = decodeBody(raw, mediaType(ctx.get('content-type') || undefined), (cause) => errors.badRequest(cause));
    body = doc.value as Record<string, unknown>;
  }
  const dry = [...query.getAll('dryRun'), ...(Array.isArray(body['dryRun']) ? (body['dryRun'] as unknown[]).map(String) : [])];
  const errs: FieldError[] = [];
  const policy = (body['propagationPolicy'] ?? query.get('propagationPolicy') ?? undefined) as string | undefined;
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy)) {
    errs.push(fieldError.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  const grace = body['gracePeriodSeconds'] ?? query.get('gracePeriodSeconds') ?? undefined;
  if (grace !== undefined && grace !== null && !/^-?\d+$/.test(String(grace))) errs.push(fieldError.invalid('gracePeriodSeconds', String(grace), 'must be an integer'));
  if (errs.length) throw optionsInvalid('DeleteOptions', errs);
  const pre = (body['preconditions'] ?? {}) as { uid?: string; resourceVersion?: string };
  return {
    dryRun: dryRunOf(dry, 'DeleteOptions'),
    preconditions: { ...(pre.uid ? { uid: pre.uid } : {}), ...(pre.resourceVersion ? { resourceVersion: pre.resourceVersion } : {}) },
  };
}

async function serveDelete(ctx: Context, store: ResourceStore, info: RequestInfo,
  rctx: (dryRun: boolean) => RequestContext, query: URLSearchParams): Promise<void> {
  const opts = await deleteOptions(ctx, query);
  const { object, deleted } = await store.delete(rctx(opts.dryRun), info.name, opts.preconditions);
  if (!deleted) return sendJson(ctx, 200, object);
  sendJson(ctx, 200, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: info.name, group: store.def.group, kind: store.def.plural, uid: object.metadata.uid ?? '' },
  });
}
