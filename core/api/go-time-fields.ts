// The metav1.Time and metav1.MicroTime fields of a resource schema, and the form a decoded object
// keeps them in. Both are `format: date-time` strings, as upstream's OpenAPI documents them; a
// MicroTime also carries `x-go-type: v1.MicroTime` (stripped from the served OpenAPI with the
// other Go names). Upstream decodes a time with time.Parse and writes it back with
// t.UTC().Format, so what is stored and served is not what was sent: a Time is UTC at whole
// seconds (`2026-01-01T01:00:00.5+02:00` is `2025-12-31T23:00:00Z`), a MicroTime UTC with six
// digits, and the zero time is null.
import type { JsonSchema } from '../registry/resource.js';
import { GO_TYPE } from './go-types.js';
import { RFC3339, RFC3339_MICRO, servedGoTimeOf, type GoTimeLayout } from './go-time.js';

export const MICRO_TIME_GO_TYPE = 'v1.MicroTime';

/** The layout a time field is parsed and written in; undefined for any other field. */
export function timeLayoutOf(schema: JsonSchema): GoTimeLayout | undefined {
  if (schema.format !== 'date-time') return undefined;
  return schema[GO_TYPE] === MICRO_TIME_GO_TYPE ? RFC3339_MICRO : RFC3339;
}

const holdsTimes = new WeakMap<JsonSchema, boolean>();
/** Whether any time field lies at or under `schema` (most subtrees have none: skip them). */
function mayHoldTimes(schema: JsonSchema): boolean {
  let known = holdsTimes.get(schema);
  if (known === undefined) {
    const below = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []),
      ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [])];
    known = timeLayoutOf(schema) !== undefined || below.some(mayHoldTimes);
    holdsTimes.set(schema, known);
  }
  return known;
}

function canonical(value: unknown, schema: JsonSchema): unknown {
  const layout = timeLayoutOf(schema);
  if (layout && typeof value === 'string') return servedGoTimeOf(value, layout);
  canonicalTimes(value, schema);
  return value;
}

/**
 * Rewrites, in place, every time field of a decoded object into the form upstream stores. Run
 * after the type check (schema-types.ts), which has refused any time that does not parse.
 */
export function canonicalTimes(value: unknown, schema: JsonSchema): void {
  if (value === null || typeof value !== 'object' || !mayHoldTimes(schema)) return;
  if (Array.isArray(value)) {
    if (schema.items) for (let i = 0; i < value.length; i++) value[i] = canonical(value[i], schema.items);
    return;
  }
  const map = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const sub = (schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined) ?? map;
    if (!sub) continue;
    // Written only where it changes: a map key may be `__proto__`, an own property JSON.parse made.
    const next = canonical(obj[key], sub);
    if (next !== obj[key]) obj[key] = next;
  }
}
