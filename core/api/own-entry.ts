// A map's entry set as an own property even when its key is `__proto__` (a legal Secret data key,
// user extra key or annotation key): a plain assignment would set the object's prototype instead,
// and the entry would vanish from the object and from every answer, where JSON.parse keeps it.
export function putEntry<T>(into: Record<string, T>, key: string, value: T): void {
  // Plain assignment for every other key: this runs for every field of every answer (go-order.ts).
  if (key === '__proto__') Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}
