// Which of several type errors encoding/json reports. It decodes in document order and keeps going
// after an UnmarshalTypeError, answering the first one saved; but an error from a custom
// unmarshaler (metav1.Time's string decode or time parse) stops decoding at once and is answered
// instead, whatever was saved before it. ajv, by contrast, reports in schema order.
import type { JsonSchema } from '../registry/resource.js';
import { GO_TYPE } from './go-types.js';
import { QUANTITY_GO_TYPE } from './quantity.js';

/** A located failure: the JSON pointer segments of the value, and whether a custom unmarshaler fails it. */
export interface DecodeFailure { segments: string[]; aborts: boolean }

/**
 * Compares paths in `doc`: negative when `a` comes before `b` (a value's parent comes before it).
 * An object's key positions are looked up once, so a body of a million failures in one object
 * costs a million lookups, not a million scans of its keys.
 */
function documentOrder(doc: unknown): (a: readonly string[], b: readonly string[]) => number {
  const positions = new WeakMap<object, Map<string, number>>();
  const position = (node: object, key: string): number => {
    let keys = positions.get(node);
    if (!keys) positions.set(node, (keys = new Map(Object.keys(node).map((k, i) => [k, i]))));
    return keys.get(key) ?? -1;
  };
  return (a, b) => {
    let node = doc;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) {
        if (Array.isArray(node)) return Number(a[i]) - Number(b[i]);
        if (!node || typeof node !== 'object') return 0;
        return position(node, a[i]!) - position(node, b[i]!);
      }
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[a[i]!] : undefined;
    }
    return a.length - b.length;
  };
}

/**
 * The failure Go's decoder would answer with, or undefined for none: the first that aborts, else
 * the first, in document order (the earlier listed on a tie). One pass, no sort: a body may fail
 * a million times.
 */
export function goReportedFailure<F extends DecodeFailure>(doc: unknown, failures: Iterable<F>): F | undefined {
  const before = documentOrder(doc);
  let first: F | undefined;
  let firstAborting: F | undefined;
  for (const f of failures) {
    if (!first || before(f.segments, first.segments) < 0) first = f;
    if (f.aborts && (!firstAborting || before(f.segments, firstAborting.segments) < 0)) firstAborting = f;
  }
  return firstAborting ?? first;
}

/** metav1.Time, MicroTime and resource.Quantity have their own UnmarshalJSON: their failures abort decoding. */
export const hasCustomUnmarshaler = (schema: JsonSchema): boolean => schema.format === 'date-time' || schema[GO_TYPE] === QUANTITY_GO_TYPE;
