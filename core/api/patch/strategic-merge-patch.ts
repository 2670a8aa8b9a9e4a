// Kubernetes strategic merge patch (apimachinery/pkg/util/strategicpatch), driven by a resource's
// JSON schema instead of Go struct tags. The schema answers the two questions SMP asks of a field:
// how to combine a list (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`) and
// whether a map is replaced whole (strategy `replace`).
//
// Supported, as upstream applies a patch (MergeParallelList + IgnoreUnmatchedNulls):
// - maps merge recursively; a `null` value deletes the member (and is dropped when there is
//   nothing to delete);
// - lists whose strategy includes `merge`: lists of maps merge element-wise by the merge key
//   (matching elements merge recursively, new ones are added, `{<key>: v, $patch: delete}` removes
//   every element with that key, `{$patch: replace}` anywhere in the list makes the rest of the
//   patch list the result); lists of scalars become the de-duplicated union. Element order follows
//   upstream's rule: patch order for patched elements, live order for the others, interleaved by
//   live order, which puts brand-new elements first;
// - every other list (no strategy, `x-kubernetes-list-type: atomic`, `set` or `map` without a
//   patch strategy) is replaced by the patch's list as it is: a `$` key in one of its items is no
//   directive there but a field, which decoding reports unknown (a warning, or Strict's error);
// - directives on maps: `$patch: replace` (the patch map, stripped of directives, is the result),
//   `$patch: delete` (the map becomes `{}`), `$retainKeys: [..]` (members not listed are dropped;
//   patch members must be listed), `$deleteFromPrimitiveList/<field>: [..]` (remove those scalars),
//   `$setElementOrder/<field>: [..]` (final order of a merging list; ignored on other lists, never
//   copied into the result); any other `$` key is a field like the rest (upstream has no error for
//   an unknown directive);
// - where the schema does not describe a field's structure (no `properties` and no schema-valued
//   `additionalProperties`, or `x-kubernetes-preserve-unknown-fields`), the subtree gets JSON
//   merge patch semantics: directives there are plain data, lists are replaced.
//
// Differences from upstream, all on malformed patches: a map or merging list new to the object is
// cleaned of directives and nulls, where upstream copies it verbatim; errors upstream reports as
// 500 (unknown list directive, missing merge key declaration, mixed element types) are 400s here. A list element without its merge key is upstream's 500:
// ErrNoMergeKey is a plain error, which interpretStrategicMergePatchError passes on as it is.
import type { JsonSchema } from '../../registry/resource.js';
import { errors } from '../errors.js';
import { cloneJson, getOwn, goJsonType, hasOwn, isJsonObject, setOwn, type JsonObject } from './json-value.js';
import { applyMergePatch } from './merge-patch.js';
import { patchNotApplicable } from './patch-errors.js';

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

// apimachinery/pkg/util/mergepatch error texts.
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';

/** Applies `patch` to a copy of `doc` (an object); `doc` and `patch` are left untouched. */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, schema: JsonSchema): unknown {
  // Go decodes the body into a map: null is an empty patch, anything but an object a 400.
  if (patch === null) return cloneJson(doc);
  if (!isJsonObject(patch)) {
    throw errors.badRequest(`json: cannot unmarshal ${goJsonType(patch)} into Go value of type map[string]interface {}`);
  }
  return mergeMap(isJsonObject(doc) ? cloneJson(doc) : {}, patch, schema, '');
}

/** Does the schema say which members a map has? If not, SMP has nothing to go on. */
function isDescribed(schema: JsonSchema | undefined): schema is JsonSchema {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true) return false;
  return schema.properties !== undefined || isJsonObject(schema.additionalProperties);
}

function memberSchema(schema: JsonSchema, key: string): JsonSchema | undefined {
  if (schema.properties && Object.prototype.hasOwnProperty.call(schema.properties, key)) return schema.properties[key];
  return isJsonObject(schema.additionalProperties) ? (schema.additionalProperties as JsonSchema) : undefined;
}

const strategies = (schema: JsonSchema | undefined): string[] =>
  (schema?.['x-kubernetes-patch-strategy'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);

const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** Merges `patch` into `original`, which the caller owns (a fresh copy): mutated and returned. */
function mergeMap(original: JsonObject, patch: JsonObject, schema: JsonSchema | undefined, path: string): JsonObject {
  if (!isDescribed(schema)) return applyMergePatch(original, patch) as JsonObject;

  if (hasOwn(patch, PATCH)) {
    const directive = patch[PATCH];
    if (directive === 'delete') return {};
    if (directive !== 'replace') throw badPatchType(directive, patch);
    const rest = { ...patch };
    delete rest[PATCH];
    return mergeMap({}, rest, schema, path);
  }

  if (hasOwn(patch, RETAIN_KEYS)) applyRetainKeys(original, patch);

  const fields: Array<[string, unknown]> = [];
  const orders: Array<[string, unknown]> = [];
  const deletions: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(patch)) {
    const declared = schema.properties !== undefined && Object.prototype.hasOwnProperty.call(schema.properties, key);
    if (declared || !key.startsWith('$')) fields.push([key, value]);
    else if (key === RETAIN_KEYS) continue;
    else if (key.startsWith(SET_ELEMENT_ORDER)) orders.push([directiveField(key, SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER), value]);
    else if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) deletions.push([directiveField(key, DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST), value]);
    // No directive: upstream's mergeMap takes it as any other key, so decoding finds an unknown
    // field (a warning, or Strict's error) or, in a map such as labels, a key like any other.
    else fields.push([key, value]);
  }

  // Orders are checked against the patch list and need the live list as it was before merging.
  const before = new Map<string, unknown>();
  for (const [field, order] of orders) {
    if (!Array.isArray(order)) throw errors.badRequest(BAD_SET_ELEMENT_ORDER);
    const listSchema = memberSchema(schema, field);
    if (isMergingList(listSchema)) validateOrder(getOwn(patch, field), order, listSchema['x-kubernetes-patch-merge-key'] ?? '');
    before.set(field, getOwn(original, field));
  }

  for (const [key, value] of fields) mergeMember(original, key, value, memberSchema(schema, key), child(path, key));

  for (const [field, order] of orders) {
    const listSchema = memberSchema(schema, field);
    const merged = getOwn(original, field);
    if (!isMergingList(listSchema) || !Array.isArray(merged)) continue;
    const mergeKey = listSchema['x-kubernetes-patch-merge-key'] ?? '';
    const id = identity(merged, mergeKey);
    if (!id) continue;
    const live = before.get(field);
    setOwn(original, field, normalizeOrder(merged, order as unknown[], Array.isArray(live) ? live : [], id));
  }

  for (const [field, values] of deletions) {
    if (values === null) { delete original[field]; continue; }
    if (!Array.isArray(values)) throw errors.badRequest(BAD_PRIMITIVE_LIST);
    const current = getOwn(original, field);
    if (Array.isArray(current)) setOwn(original, field, current.filter((v) => !values.some((d) => d === v)));
  }
  return original;
}

function mergeMember(target: JsonObject, key: string, value: unknown, schema: JsonSchema | undefined, path: string): void {
  if (value === null) { delete target[key]; return; }
  const current = getOwn(target, key);
  let merged: unknown;
  if (isJsonObject(current) && isJsonObject(value)) {
    merged = strategies(schema).includes('replace') ? fromPatch(value, schema, path) : mergeMap(current, value, schema, path);
  } else if (Array.isArray(current) && Array.isArray(value)) {
    merged = mergeList(current, value, schema, path);
  } else {
    // Absent, or of another JSON type: the patch value wins, applied to nothing.
    merged = fromPatch(value, schema, path);
  }
  setOwn(target, key, merged);
}

/** A patch value applied to an empty value of its own type: directives resolved, nulls dropped. */
function fromPatch(value: unknown, schema: JsonSchema | undefined, path: string): unknown {
  if (isJsonObject(value)) return mergeMap({}, value, schema, path);
  if (Array.isArray(value)) return mergeList([], value, schema, path);
  return value;
}

const isMergingList = (schema: JsonSchema | undefined): schema is JsonSchema =>
  schema !== undefined && schema['x-kubernetes-preserve-unknown-fields'] !== true && strategies(schema).includes('merge');

function mergeList(current: unknown[], patch: unknown[], schema: JsonSchema | undefined, path: string): unknown[] {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true) return cloneJson(patch);
  const items = schema.items;
  // mergeSliceHandler: any other list is the patch's, as it is; a `$` key in one of its items is
  // no directive there, but a field the decoder does not know.
  if (!isMergingList(schema)) return cloneJson(patch);
  if (current.length === 0 && patch.length === 0) return [];

  if (elementKind(current, patch) !== 'map') {
    const union = [...new Set([...current, ...patch])];
    return normalizeOrder(union, patch, current, (v) => v);
  }

  const mergeKey = schema['x-kubernetes-patch-merge-key'];
  if (!mergeKey) throw errors.badRequest(`cannot merge lists without merge key for ${path}`);
  const keyOf = (m: unknown): unknown => mergeKeyOf(m as JsonObject, mergeKey);

  let live = current;
  let replace = false;
  const plain: JsonObject[] = [];
  for (const e of patch as JsonObject[]) {
    if (!hasOwn(e, PATCH)) { plain.push(e); continue; }
    const directive = e[PATCH];
    if (directive === 'delete') {
      const k = keyOf(e);
      live = live.filter((x) => keyOf(x) !== k);
    } else if (directive === 'replace') {
      replace = true; // keep scanning: the other directive elements must not reach the result
    } else if (directive === 'merge') {
      throw errors.badRequest('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, e);
    }
  }
  if (replace) return plain.map((e, i) => fromPatch(e, items, `${path}[${i}]`));

  const merged = [...live];
  const at = new Map<unknown, number>();
  merged.forEach((m, i) => { const k = keyOf(m); if (!at.has(k)) at.set(k, i); });
  for (const e of plain) {
    const k = keyOf(e);
    const i = at.get(k);
    if (i !== undefined) {
      merged[i] = mergeMap(merged[i] as JsonObject, e, items, `${path}[${i}]`);
    } else {
      at.set(k, merged.length);
      merged.push(fromPatch(e, items, `${path}[${merged.length}]`));
    }
  }
  return normalizeOrder(merged, plain, live, keyOf);
}

/** 'map' or the scalar type shared by every element; lists of lists and mixtures are refused. */
function elementKind(...lists: unknown[][]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const e of list) {
      const t = Array.isArray(e) ? 'list' : isJsonObject(e) ? 'map' : e === null ? 'null' : typeof e;
      if (t === 'list') throw patchNotApplicable('lists of lists are not supported');
      if (kind !== undefined && t !== kind) throw errors.badRequest(`list element types are not identical: ${goFormat(lists)}`);
      kind = t;
    }
  }
  return kind ?? 'map';
}

function mergeKeyOf(m: JsonObject, mergeKey: string): unknown {
  if (!isJsonObject(m) || !hasOwn(m, mergeKey)) {
    throw errors.unknown(`map: ${goFormat(m)} does not contain declared merge key: ${mergeKey}`);
  }
  return m[mergeKey];
}

/** How list elements are identified when ordering: by merge key for maps, by value for scalars. */
function identity(list: unknown[], mergeKey: string): ((v: unknown) => unknown) | undefined {
  if (!list.some(isJsonObject)) return (v) => v;
  return mergeKey ? (m) => mergeKeyOf(m as JsonObject, mergeKey) : undefined;
}

/**
 * Upstream's normalizeElementOrder: elements named by `order` sorted as `order` has them, the
 * others ("server-only") as `live` has them, then the two interleaved by their place in `live`.
 */
function normalizeOrder(merged: unknown[], order: unknown[], live: unknown[], id: (v: unknown) => unknown): unknown[] {
  const orderIndex = firstIndices(order, id);
  const liveIndex = firstIndices(live, id);
  const byIndex = (index: Map<unknown, number>) => (a: unknown, b: unknown): number => {
    const ia = index.get(id(a));
    const ib = index.get(id(b));
    return ia !== undefined && ib !== undefined ? ia - ib : 0;
  };
  const patched = merged.filter((e) => orderIndex.has(id(e))).sort(byIndex(orderIndex));
  const serverOnly = merged.filter((e) => !orderIndex.has(id(e))).sort(byIndex(liveIndex));

  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patched.length) {
    if (i >= serverOnly.length) { out.push(patched[j++]); continue; }
    if (j >= patched.length) { out.push(serverOnly[i++]); continue; }
    const li = liveIndex.get(id(serverOnly[i]));
    const ri = liveIndex.get(id(patched[j]));
    // A patched element unknown to the live list wins the tie: that is why new elements lead.
    if (li !== undefined && ri !== undefined && li < ri) out.push(serverOnly[i++]);
    else out.push(patched[j++]);
  }
  return out;
}

function firstIndices(list: unknown[], id: (v: unknown) => unknown): Map<unknown, number> {
  const m = new Map<unknown, number>();
  list.forEach((v, i) => { const k = id(v); if (!m.has(k)) m.set(k, i); });
  return m;
}

/** Upstream's validatePatchWithSetOrderList: patch elements must appear in the order list, in order. */
function validateOrder(patchList: unknown, order: unknown[], mergeKey: string): void {
  if (!Array.isArray(patchList) || patchList.length === 0 || order.length === 0) return;
  const id = identity([...patchList, ...order], mergeKey);
  if (!id) return;
  const kept = patchList.filter((e) => !(isJsonObject(e) && hasOwn(e, PATCH)));
  let p = 0;
  for (let s = 0; p < kept.length && s < order.length; s++) {
    if (id(kept[p]) === id(order[s])) p++;
  }
  if (p < kept.length) {
    throw errors.badRequest(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormat(order)}\n`);
  }
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  const list = patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw errors.badRequest(BAD_RETAIN_KEYS);
  const keep = new Set<unknown>(list);
  for (const [k, v] of Object.entries(patch)) {
    if (k === RETAIN_KEYS || v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw errors.badRequest(BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** `$setElementOrder/containers` → `containers`. */
function directiveField(key: string, prefix: string, badFormat: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw errors.badRequest(badFormat);
  return key.slice(slash + 1);
}

const badPatchType = (directive: unknown, m: JsonObject) =>
  errors.badRequest(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(m)}`);

/** Go's %v of decoded JSON, for messages that quote upstream's. */
export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isJsonObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goFormat(v[k])}`).join(' ')}]`;
  return String(v);
}
