// Plain-JSON helpers shared by the three patch algorithms. Patches come from clients, so keys are
// hostile: `__proto__` must land as an own data property, never reach a prototype setter.

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const hasOwn = (o: JsonObject, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

export const getOwn = (o: JsonObject, k: string): unknown => (hasOwn(o, k) ? o[k] : undefined);

/** Assignment that cannot be hijacked by `__proto__` (or any other inherited accessor). */
export function setOwn(o: JsonObject, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** A fresh, fully independent copy: results must never alias the stored object or the patch. */
export const cloneJson = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** Structural JSON equality: key order is irrelevant, array order is significant. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The word encoding/json uses for a value's JSON type in "cannot unmarshal X into ..." errors. */
export function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object': return 'object';
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return typeof v;
  }
}

/** encoding/json's UnmarshalTypeError for a struct field: `json: cannot unmarshal string into Go struct field Owner.a.b of type bool`. */
export function goStructFieldError(value: unknown, owner: string, path: string, goType: string): string {
  return `json: cannot unmarshal ${goJsonType(value)} into Go struct field ${owner}.${path} of type ${goType}`;
}
