// The form upstream leaves a decoded object's fields in, which is what it stores and serves, not
// what was sent: a time goes through time.Parse and back (go-time-fields.ts: a Time is UTC at
// whole seconds, a MicroTime UTC with six digits), a []byte through base64 and back (no line
// breaks, zero padding bits: base64-error.ts).
import type { JsonSchema } from '../registry/resource.js';
import { goBase64 } from './base64-error.js';
import { servedGoTimeOf } from './go-time.js';
import { timeLayoutOf } from './go-time-fields.js';

const isBytes = (schema: JsonSchema) => schema.type === 'string' && schema.format === 'byte';

const holdsFields = new WeakMap<JsonSchema, boolean>();
/** Whether any time or byte field lies at or under `schema` (most subtrees have none: skip them). */
function mayHoldFields(schema: JsonSchema): boolean {
  let known = holdsFields.get(schema);
  if (known === undefined) {
    const below = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []),
      ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [])];
    known = timeLayoutOf(schema) !== undefined || isBytes(schema) || below.some(mayHoldFields);
    holdsFields.set(schema, known);
  }
  return known;
}

function decodedForm(value: unknown, schema: JsonSchema): unknown {
  if (typeof value === 'string') {
    const layout = timeLayoutOf(schema);
    if (layout) return servedGoTimeOf(value, layout);
    if (isBytes(schema)) return goBase64(value);
  }
  goDecodedForm(value, schema);
  return value;
}

/**
 * Rewrites, in place, every time and byte field of a decoded object into the form upstream
 * stores. Run after the type check (schema-types.ts), which has refused any time that does not
 * parse and any base64 Go does not decode.
 */
export function goDecodedForm(value: unknown, schema: JsonSchema): void {
  if (value === null || typeof value !== 'object' || !mayHoldFields(schema)) return;
  if (Array.isArray(value)) {
    if (schema.items) for (let i = 0; i < value.length; i++) value[i] = decodedForm(value[i], schema.items);
    return;
  }
  const map = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const sub = (schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined) ?? map;
    if (!sub) continue;
    // Written only where it changes: a map key may be `__proto__`, an own property JSON.parse made.
    const next = decodedForm(obj[key], sub);
    if (next !== obj[key]) obj[key] = next;
  }
}
