// The Go types behind a resource's JSON schema, as reflect prints them in encoding/json's
// UnmarshalTypeError ("of type []v1.KeyUsage", "Go struct field CertificateSigningRequestSpec.…").
// A schema names a Go type with the `x-go-type` extension only where it cannot be derived: structs
// (`v1.ObjectMeta`) and named types (`v1.KeyUsage`, `types.UID`). Pointers never show: the decoder
// reports the value it stores into, after following the pointer.
import type { JsonSchema } from '../registry/resource.js';
import { goJsonType } from './patch/json-value.js';

export const GO_TYPE = 'x-go-type';

/** The schema's JSON type, a nullable union (`['string', 'null']`) read as its non-null member. */
export const baseType = (schema: JsonSchema): string | undefined =>
  (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** The Go type a value of this schema decodes into. */
export function goTypeOf(schema: JsonSchema): string {
  // metav1.Time and MicroTime (named `v1.MicroTime`) decode their JSON into a string first, so
  // that string is what fails.
  if (schema.format === 'date-time') return 'string';
  const named = schema[GO_TYPE];
  if (typeof named === 'string') return named;
  switch (baseType(schema)) {
    case 'string': return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'boolean': return 'bool';
    case 'integer': return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number': return 'float64';
    case 'array': return `[]${goTypeOf(schema.items ?? {})}`;
    case 'object':
      if (typeof schema.additionalProperties === 'object') return `map[string]${goTypeOf(schema.additionalProperties)}`;
      return 'map[string]interface {}';
    default: return 'interface {}';
  }
}

/** The struct's name without its package (`v1.ObjectMeta` → `ObjectMeta`), as Go's error names it. */
export function goStructName(schema: JsonSchema): string {
  const named = schema[GO_TYPE];
  return typeof named === 'string' ? named.slice(named.lastIndexOf('.') + 1) : '';
}

/** The schema without the Go names, for documents clients read (OpenAPI has no such extension). */
export function withoutGoTypes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutGoTypes) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== GO_TYPE).map(([k, v]) => [k, withoutGoTypes(v)])) as T;
}

/**
 * UnmarshalTypeError's Value (literalStore): an integer type shows the number that does not fit
 * it, as written; any other type just `number`.
 */
export function unmarshalValueWord(value: unknown, goType: string, literal?: string): string {
  const word = goJsonType(value);
  return word === 'number' && /^u?int(8|16|32|64)?$/.test(goType) ? `number ${literal ?? String(value)}` : word;
}
