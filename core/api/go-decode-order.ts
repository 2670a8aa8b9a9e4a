// Which of several type errors encoding/json reports. It decodes in document order and keeps going
// after an UnmarshalTypeError, answering the first one saved; but an error from a custom
// unmarshaler (metav1.Time's string decode or time parse) stops decoding at once and is answered
// instead, whatever was saved before it. ajv, by contrast, reports in schema order.
import type { JsonSchema } from '../registry/resource.js';
import { GO_TYPE } from './go-types.js';
import { QUANTITY_GO_TYPE } from './quantity.js';

/** A located failure: the JSON pointer segments of the value, and whether a custom unmarshaler fails it. */
export interface DecodeFailure { segments: string[]; aborts: boolean }

/** Negative when `a` comes before `b` in `doc` (a value's parent comes before it). */
function documentOrder(doc: unknown, a: string[], b: string[]): number {
  let node = doc;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      if (Array.isArray(node)) return Number(a[i]) - Number(b[i]);
      const keys = node && typeof node === 'object' ? Object.keys(node) : [];
      return keys.indexOf(a[i]!) - keys.indexOf(b[i]!);
    }
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[a[i]!] : undefined;
  }
  return a.length - b.length;
}

/** The failure Go's decoder would answer with, or undefined for none. */
export function goReportedFailure<F extends DecodeFailure>(doc: unknown, failures: readonly F[]): F | undefined {
  const ordered = [...failures].sort((x, y) => documentOrder(doc, x.segments, y.segments));
  return ordered.find((f) => f.aborts) ?? ordered[0];
}

/** metav1.Time, MicroTime and resource.Quantity have their own UnmarshalJSON: their failures abort decoding. */
export const hasCustomUnmarshaler = (schema: JsonSchema): boolean => schema.format === 'date-time' || schema[GO_TYPE] === QUANTITY_GO_TYPE;
