// FieldsV1, the JSON form of a field set in a managedFields entry, as fieldpath's
// serialize.go writes and reads it: one object per node, keyed by path element in
// PathElement.Compare order, `{}` for a member, and `".": {}` first in a node that is a member
// and has children too.
import { compareElements, FieldSet, isPathElement } from './field-set.js';

export type FieldsV1 = { [element: string]: FieldsV1 };

export function encodeFieldsV1(s: FieldSet): FieldsV1 {
  return emit(s, false);
}

function emit(s: FieldSet, self: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (self && !s.empty) out['.'] = {};
  const keys = new Set<string>(s.members);
  for (const k of s.children.keys()) keys.add(k);
  for (const k of [...keys].sort(compareElements)) {
    const c = s.children.get(k);
    out[k] = c ? emit(c, s.members.has(k)) : {};
  }
  return out;
}

export class FieldsV1Error extends Error {}

/** Set.FromJSON: a key that is not a path element, or a value that is not an object, is an error. */
export function decodeFieldsV1(v: unknown): FieldSet {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldsV1Error('expected an object');
  return read(v as Record<string, unknown>);
}

function read(o: Record<string, unknown>): FieldSet {
  const s = new FieldSet();
  for (const [k, v] of Object.entries(o)) {
    if (k === '.') continue;
    if (!isPathElement(k)) throw new FieldsV1Error(`parsing JSON: ${JSON.stringify(k)}: unknown path element`);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldsV1Error(`expected an object at ${JSON.stringify(k)}`);
    const inner = v as Record<string, unknown>;
    const keys = Object.keys(inner);
    if (keys.length === 0 || '.' in inner) s.members.add(k);
    if (keys.some((x) => x !== '.')) {
      const c = read(inner);
      if (!c.empty) s.children.set(k, c);
    }
  }
  return s;
}
