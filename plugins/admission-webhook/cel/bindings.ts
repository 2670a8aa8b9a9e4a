// Values for the CEL variables. JSON objects become Maps (a plain object would let a
// `__proto__` key reach the prototype) and whole numbers become CEL ints, as they are in the
// unstructured objects upstream evaluates (`object.spec.expirationSeconds * 2` is int arithmetic).
import type { CelInput } from '@bufbuild/cel';

export type CelBindings = { object: CelInput; oldObject: CelInput; request: CelInput; authorizer: CelInput };

export function toCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'object') {
    const m = new Map<string, CelInput>();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) m.set(k, toCel(v));
    return m;
  }
  return null;
}
