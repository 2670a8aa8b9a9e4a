// The key order of an object as kube-apiserver writes it. encoding/json writes a struct's fields
// in declaration order (kind before apiVersion, ObjectMeta's name, uid, resourceVersion,
// creationTimestamp, ...) and a map's keys sorted by their UTF-8 bytes; the resource schemas list
// their properties in declaration order, so an object is put in that order once, when it is
// encoded for storage, and every read, list and watch event then serves it as it was stored.
import type { JsonSchema } from '../registry/resource.js';
import { objectMetaSchema } from './object-meta-schema.js';
import { isJsonObject } from './patch/json-value.js';
import { putEntry } from './own-entry.js';

/** UTF-8 byte order, which is code point order (UTF-16 code units order U+E000–U+FFFF after the astral planes). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) !== surrogate(y) && Math.max(x, y) >= 0xe000) return surrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** `value` with its objects' keys in the order Go writes them (a new value; `value` is not changed). */
export function goOrdered(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) return schema?.items ? value.map((v) => goOrdered(v, schema.items)) : value;
  // Unstructured content keeps the order it came in: plat does not know Go's type for it.
  if (!schema || !isJsonObject(value) || schema['x-kubernetes-preserve-unknown-fields'] === true) return value;
  const out: Record<string, unknown> = {};
  const props = schema.properties;
  if (props) {
    for (const key of Object.keys(props)) if (Object.hasOwn(value, key)) putEntry(out, key, goOrdered(value[key], props[key]));
    // Fields the schema does not name (none once pruned) follow in their own order.
    for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) putEntry(out, key, value[key]);
    return out;
  }
  const items = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!items) return value;
  for (const key of Object.keys(value).sort(compareCodePoints)) putEntry(out, key, goOrdered(value[key], items));
  return out;
}

/** ObjectMeta's fields declared after resourceVersion, which storage leaves out and reads add back. */
const AFTER_RESOURCE_VERSION = new Set(Object.keys(objectMetaSchema.properties!).slice(Object.keys(objectMetaSchema.properties!).indexOf('resourceVersion') + 1));

/** Stored metadata (in Go's order, without resourceVersion) with `resourceVersion` where Go writes it. */
export function withResourceVersion<M extends object>(metadata: M, resourceVersion: string): M & { resourceVersion: string } {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(metadata)) {
    if (!placed && AFTER_RESOURCE_VERSION.has(key)) {
      out['resourceVersion'] = resourceVersion;
      placed = true;
    }
    if (key !== 'resourceVersion') out[key] = (metadata as Record<string, unknown>)[key];
  }
  if (!placed) out['resourceVersion'] = resourceVersion;
  return out as M & { resourceVersion: string };
}
