// The fields a value sets (typed.ToFieldSet): every scalar and atomic list or map is a member;
// a list item of a granular list always is, as its key; a map entry is when its value is null or
// an empty map, or when it is no declared field (a label, an annotation); a declared field holding
// a non-empty struct is not, only what is below it.
import { FieldSet, fieldElement, indexElement, keyElement, valueElement, type PathElement } from './field-set.js';
import { fieldShape, isPlainObject, resolve, type Shape } from './schema-shape.js';

export class FieldSetError extends Error {}

/** listItemToPathElement: `k:` by the list's map keys, `v:` for a set's scalar, `i:` otherwise. */
export function itemElement(list: Shape & { t: 'list' }, item: unknown, index: number): PathElement {
  if (list.rel === 'map' && list.keys.length > 0) {
    if (!isPlainObject(item)) throw new FieldSetError('associative list with keys has an element that\'s a non-map type');
    const fields: Array<[string, unknown]> = [];
    for (const k of list.keys) {
      if (!(k in item)) throw new FieldSetError(`associative list with keys has an element that omits key field "${k}"`);
      fields.push([k, item[k]]);
    }
    return keyElement(fields);
  }
  if (list.rel === 'set' || list.rel === 'map') {
    if (item === null) throw new FieldSetError('associative list without keys has an element that\'s an explicit null');
    if (typeof item === 'object') throw new FieldSetError('associative list without keys has an element that\'s a map type');
    return valueElement(item);
  }
  return indexElement(index);
}

export const isGranularList = (s: Shape): s is Shape & { t: 'list' } => s.t === 'list' && s.rel !== 'atomic';

/** The field set of `v` of `shape`. */
export function toFieldSet(v: unknown, shape: Shape): FieldSet {
  const out = new FieldSet();
  collect(v, shape, out);
  return out;
}

/** Adds what is below `v` to `out`; true when `v` is itself a leaf. */
function collect(v: unknown, shape: Shape, out: FieldSet): boolean {
  const s = resolve(shape, v);
  if (s.t === 'scalar') return true;
  if (s.t === 'list') {
    if (s.rel === 'atomic') return true;
    if (!Array.isArray(v)) return v !== null;
    v.forEach((item, i) => {
      const e = itemElement(s, item, i);
      const sub = new FieldSet();
      collect(item, s.elem, sub);
      out.members.add(e);
      out.attach(e, sub);
    });
    return false;
  }
  if (s.t === 'map') {
    if (s.atomic) return true;
    if (!isPlainObject(v)) return v !== null;
    for (const key of Object.keys(v)) {
      const val = v[key];
      if (val === undefined) continue;
      const { shape: fs, declared } = fieldShape(s, key);
      const e = fieldElement(key);
      const sub = new FieldSet();
      const leaf = collect(val, fs, sub);
      if (leaf || val === null || (isPlainObject(val) && Object.keys(val).length === 0) || !declared) out.members.add(e);
      out.attach(e, sub);
    }
    return false;
  }
  return true;
}

/** Set.EnsureNamedFieldsAreMembers: a declared field of a struct with something below it is a member too. */
export function ensureNamedFieldsAreMembers(set: FieldSet, shape: Shape): FieldSet {
  if (set.children.size === 0) return set;
  const out = new FieldSet();
  for (const m of set.members) out.members.add(m);
  for (const [e, c] of set.children) {
    let child: Shape | undefined;
    if (shape.t === 'map' && e.startsWith('f:')) {
      const f = shape.fields.get(e.slice(2));
      if (f) { out.members.add(e); child = f; } else child = shape.elem;
    } else if (shape.t === 'list') child = shape.elem;
    out.children.set(e, child ? ensureNamedFieldsAreMembers(c, child) : c);
  }
  return out;
}
