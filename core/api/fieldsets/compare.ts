// TypedValue.Compare: which fields an update added, modified and removed. Leaves (scalars, atomic
// lists and maps, and a list or map empty or null on both sides) are compared by value; a map
// entry or list item that is no leaf is added or removed as a whole besides what is below it.
//
// A struct absent on one side counts as empty there: upstream compares a built-in kind's Go
// structs, where a struct field (spec, status, metadata) is always present, so creating an object
// owns `spec.signerName` but never `spec` itself.
import { isDeepStrictEqual } from 'node:util';
import { FieldSet, fieldElement } from './field-set.js';
import { fieldShape, isPlainObject, resolve, type Shape } from './schema-shape.js';
import { itemElement } from './to-field-set.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export function compare(lhs: unknown, rhs: unknown, shape: Shape): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  descend(lhs, rhs, shape, c);
  return c;
}

const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || (Array.isArray(v) ? v.length === 0 : isPlainObject(v) && Object.keys(v).length === 0);

/** Whether the node is a leaf for merging: then the caller compares it whole. */
function isLeaf(lhs: unknown, rhs: unknown, s: Shape): boolean {
  if (s.t === 'scalar' || s.t === 'deduced') return true;
  if (s.t === 'list') return s.rel === 'atomic' || (isEmpty(lhs) && isEmpty(rhs)) || !listOrAbsent(lhs) || !listOrAbsent(rhs);
  return s.atomic || (isEmpty(lhs) && isEmpty(rhs)) || !mapOrAbsent(lhs) || !mapOrAbsent(rhs);
}
const listOrAbsent = (v: unknown): boolean => v === undefined || v === null || Array.isArray(v);
const mapOrAbsent = (v: unknown): boolean => v === undefined || v === null || isPlainObject(v);

/** Compares below a node that is no leaf, adding to `c` (all relative to the node). */
function descend(lhs: unknown, rhs: unknown, shape: Shape, c: Comparison): void {
  const s = resolve(shape, rhs ?? lhs);
  if (s.t === 'list') {
    const l = Array.isArray(lhs) ? lhs : [], r = Array.isArray(rhs) ? rhs : [];
    const left = new Map<string, unknown>();
    l.forEach((item, i) => left.set(itemElement(s, item, i), item));
    const seen = new Set<string>();
    r.forEach((item, i) => {
      const e = itemElement(s, item, i);
      seen.add(e);
      entry(e, left.has(e) ? left.get(e) : undefined, item, left.has(e), true, s.elem, c);
    });
    for (const [e, item] of left) if (!seen.has(e)) entry(e, item, undefined, true, false, s.elem, c);
    return;
  }
  if (s.t !== 'map') return;
  const l = isPlainObject(lhs) ? lhs : {}, r = isPlainObject(rhs) ? rhs : {};
  for (const key of Object.keys(r)) {
    if (r[key] === undefined) continue;
    const { shape: fs } = fieldShape(s, key);
    const has = key in l && l[key] !== undefined;
    // A struct never is absent (see above).
    const struct = !has && isStruct(fs);
    entry(fieldElement(key), has ? l[key] : struct ? {} : undefined, r[key], has || struct, true, fs, c);
  }
  for (const key of Object.keys(l)) {
    if (l[key] === undefined || (key in r && r[key] !== undefined)) continue;
    const { shape: fs } = fieldShape(s, key);
    const struct = isStruct(fs);
    entry(fieldElement(key), l[key], struct ? {} : undefined, true, struct, fs, c);
  }
}

const isStruct = (s: Shape): boolean => s.t === 'map' && s.fields.size > 0;

function entry(e: string, lv: unknown, rv: unknown, hasL: boolean, hasR: boolean, shape: Shape, c: Comparison): void {
  const s = resolve(shape, hasR ? rv : lv);
  if (isLeaf(hasL ? lv : undefined, hasR ? rv : undefined, s)) {
    if (!hasL) c.added.members.add(e);
    else if (!hasR) c.removed.members.add(e);
    else if (!isDeepStrictEqual(lv, rv)) c.modified.members.add(e);
    return;
  }
  const sub = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  descend(hasL ? lv : undefined, hasR ? rv : undefined, s, sub);
  c.added.attach(e, sub.added);
  c.modified.attach(e, sub.modified);
  c.removed.attach(e, sub.removed);
  // The postItemHook: an entry or item that is no leaf is itself added or removed.
  if (!hasL) c.added.members.add(e);
  else if (!hasR) c.removed.members.add(e);
}
