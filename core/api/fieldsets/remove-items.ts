// TypedValue.RemoveItems: a copy of a value without the fields, map entries and list items of a
// set; a member goes with everything below it. Atomic lists and maps are not entered.
import type { FieldSet } from './field-set.js';
import { fieldElement } from './field-set.js';
import { fieldShape, isPlainObject, resolve, type Shape } from './schema-shape.js';
import { itemElement } from './to-field-set.js';

export function removeItems(v: unknown, set: FieldSet, shape: Shape): unknown {
  if (set.empty) return v;
  const s = resolve(shape, v);
  if (s.t === 'list' && s.rel !== 'atomic' && Array.isArray(v)) {
    const out: unknown[] = [];
    v.forEach((item, i) => {
      const e = itemElement(s, item, i);
      if (set.members.has(e)) return;
      const sub = set.children.get(e);
      out.push(sub ? removeItems(item, sub, s.elem) : item);
    });
    return out;
  }
  if (s.t === 'map' && !s.atomic && isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      const e = fieldElement(k);
      if (set.members.has(e)) continue;
      const sub = set.children.get(e);
      out[k] = sub ? removeItems(val, sub, fieldShape(s, k).shape) : val;
    }
    return out;
  }
  return v;
}
