// What a resource's schema says of field ownership, as kube-openapi's schemaconv turns OpenAPI
// into structured-merge-diff's schema: a struct (`properties`) or a map (`additionalProperties`)
// is granular unless `x-kubernetes-map-type: atomic`; a list is what `x-kubernetes-list-type` says
// (`map` with its `x-kubernetes-list-map-keys`, `set`, `atomic`), else what its patch strategy
// implies (merge with a merge key: a map; merge without: a set), else atomic; a node that says
// nothing of its type (preserve-unknown-fields) is "deduced": a granular map, an atomic list or a
// scalar, by the value. Compiled once per schema node (WeakMap), so a write never re-reads a schema.
import type { JsonSchema } from '../../registry/resource.js';
import { QUANTITY_GO_TYPE } from '../quantity.js';

export type Shape =
  /** `kind`: what the OpenAPI type says the scalar is (schemaconv's Numeric, String, Boolean); none is untyped. */
  | { readonly t: 'scalar'; readonly kind?: 'string' | 'numeric' | 'boolean' }
  | { readonly t: 'deduced' }
  | { readonly t: 'map'; readonly atomic: boolean; readonly fields: ReadonlyMap<string, Shape>; readonly elem: Shape | undefined }
  | { readonly t: 'list'; readonly rel: 'atomic' | 'set' | 'map'; readonly keys: readonly string[]; readonly elem: Shape };

export const SCALAR: Shape = { t: 'scalar' };
const TYPED_SCALARS: Readonly<Record<string, Shape>> = {
  string: { t: 'scalar', kind: 'string' }, integer: { t: 'scalar', kind: 'numeric' },
  number: { t: 'scalar', kind: 'numeric' }, boolean: { t: 'scalar', kind: 'boolean' },
};
export const DEDUCED: Shape = { t: 'deduced' };

const cache = new WeakMap<JsonSchema, Shape>();

export function shapeOf(schema: JsonSchema | undefined): Shape {
  if (!schema) return DEDUCED;
  let s = cache.get(schema);
  if (!s) cache.set(schema, (s = compile(schema)));
  return s;
}

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  return Array.isArray(t) ? t.find((x) => x !== 'null') : t;
}

function compile(schema: JsonSchema): Shape {
  const type = typeOf(schema);
  if (type === 'array' || (type === undefined && schema.items)) return compileList(schema);
  if (type === 'object' || (type === undefined && (schema.properties || schema.additionalProperties))) {
    const props = schema.properties;
    const extra = schema.additionalProperties;
    const elem = typeof extra === 'object' ? extra : extra === true || schema['x-kubernetes-preserve-unknown-fields'] ? undefined : null;
    if (!props && elem === undefined) return DEDUCED;
    if (!props && elem === null) return DEDUCED;
    const fields = new Map<string, Shape>();
    const shape = {
      t: 'map' as const, atomic: schema['x-kubernetes-map-type'] === 'atomic', fields,
      elem: elem === null ? undefined : elem === undefined ? DEDUCED : shapeOf(elem),
    };
    for (const [k, v] of Object.entries(props ?? {})) fields.set(k, shapeOf(v));
    return shape;
  }
  if (type === undefined && schema['x-kubernetes-preserve-unknown-fields']) return DEDUCED;
  // schemaconv's convertPrimitive: a string with a format other than byte (date-time,
  // int-or-string) is untyped, and so is a Quantity, which decodes from a number too.
  const union = Array.isArray(schema.type) && schema.type.filter((x) => x !== 'null').length > 1;
  if (schema['x-kubernetes-int-or-string'] || type === undefined || union || schema['x-go-type'] === QUANTITY_GO_TYPE) return SCALAR;
  if (type === 'string' && schema.format && schema.format !== 'byte') return SCALAR;
  return TYPED_SCALARS[type] ?? SCALAR;
}

function compileList(schema: JsonSchema): Shape {
  const elem = shapeOf(schema.items);
  const declared = schema['x-kubernetes-list-type'];
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (declared === 'map') return { t: 'list', rel: 'map', keys, elem };
  if (declared === 'set') return { t: 'list', rel: 'set', keys: [], elem };
  if (declared === 'atomic') return { t: 'list', rel: 'atomic', keys: [], elem };
  const strategies = (schema['x-kubernetes-patch-strategy'] ?? '').split(',').map((s) => s.trim());
  if (strategies.includes('merge')) {
    const key = schema['x-kubernetes-patch-merge-key'];
    return key ? { t: 'list', rel: 'map', keys: [key], elem } : { t: 'list', rel: 'set', keys: [], elem };
  }
  return { t: 'list', rel: 'atomic', keys: [], elem };
}

/** The shape of a map's entry `key`: its declared field, else the map's element type. */
export function fieldShape(shape: Shape & { t: 'map' }, key: string): { shape: Shape; declared: boolean } {
  const f = shape.fields.get(key);
  if (f) return { shape: f, declared: true };
  return { shape: shape.elem ?? DEDUCED, declared: false };
}

/** Resolves `deduced` against a value: a map is granular, a list atomic, anything else a scalar. */
export function resolve(shape: Shape, v: unknown): Shape {
  if (shape.t !== 'deduced') return shape;
  if (isPlainObject(v)) return DEDUCED_MAP;
  if (Array.isArray(v)) return DEDUCED_LIST;
  return SCALAR;
}

const DEDUCED_MAP: Shape = { t: 'map', atomic: false, fields: new Map(), elem: DEDUCED };
const DEDUCED_LIST: Shape = { t: 'list', rel: 'atomic', keys: [], elem: DEDUCED };

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
