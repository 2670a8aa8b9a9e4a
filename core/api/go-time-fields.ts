// The metav1.Time and metav1.MicroTime fields of a resource schema, and the layout each is parsed
// and written in (go-decoded-form.ts rewrites a decoded object's). Both are `format: date-time`
// strings, as upstream's OpenAPI documents them; a MicroTime also carries `x-go-type: v1.MicroTime`
// (stripped from the served OpenAPI with the other Go names). Upstream decodes a time with
// time.Parse and writes it back with t.UTC().Format, so what is stored and served is not what was
// sent: a Time is UTC at whole seconds (`2026-01-01T01:00:00.5+02:00` is `2025-12-31T23:00:00Z`),
// a MicroTime UTC with six digits, and the zero time is null.
import type { JsonSchema } from '../registry/resource.js';
import { GO_TYPE } from './go-types.js';
import { RFC3339, RFC3339_MICRO, type GoTimeLayout } from './go-time.js';

export const MICRO_TIME_GO_TYPE = 'v1.MicroTime';

/** The layout a time field is parsed and written in; undefined for any other field. */
export function timeLayoutOf(schema: JsonSchema): GoTimeLayout | undefined {
  if (schema.format !== 'date-time') return undefined;
  return schema[GO_TYPE] === MICRO_TIME_GO_TYPE ? RFC3339_MICRO : RFC3339;
}
