// encoding/json decodes a JSON null by leaving the Go value alone (a struct, string, number or
// bool keeps its zero value) or setting it to nil (a slice, map or pointer): a null field is an
// absent one, and a null element of a list or map is its type's zero value. JSON schema has no
// such rule, so the nulls go before the schema type check, leaving the object Go would hold:
// `labels: null`, `status: null` or `expirationSeconds: null` decode upstream and must here too.
import type { JsonSchema } from '../registry/resource.js';
import { baseType, GO_TYPE } from './go-types.js';
import { QUANTITY_GO_TYPE } from './quantity.js';
import { isJsonObject } from './patch/json-value.js';

/** Null stays where the schema keeps it: unstructured content, or a nullable type such as metav1.Time. */
const keepsNull = (s: JsonSchema): boolean =>
  s.nullable === true || s['x-kubernetes-preserve-unknown-fields'] === true || (Array.isArray(s.type) && s.type.includes('null'));

function zeroValue(s: JsonSchema): unknown {
  // Quantity.UnmarshalJSON takes null as the zero Quantity, which marshals as "0".
  if (s[GO_TYPE] === QUANTITY_GO_TYPE) return '0';
  switch (baseType(s)) {
    case 'string': return '';
    case 'integer': case 'number': return 0;
    case 'boolean': return false;
    case 'array': return [];
    case 'object': return {};
    default: return null;
  }
}

/** Rewrites `value` in place as Go's decoder would hold it. */
export function applyGoNulls(value: unknown, schema: JsonSchema): void {
  if (keepsNull(schema)) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null) { if (!keepsNull(items)) value[i] = zeroValue(items); } else applyGoNulls(value[i], items);
    }
    return;
  }
  if (!isJsonObject(value)) return;
  const map = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const field = schema.properties?.[key];
    const sub = field ?? map;
    if (!sub) continue;
    if (value[key] !== null) applyGoNulls(value[key], sub);
    else if (keepsNull(sub)) continue;
    // A struct field: no-op or nil, shown as absent. A map element: stored as its zero value.
    else if (field) delete value[key];
    else value[key] = zeroValue(sub);
  }
}
