// A parsed document as a flat list, for the YAML worker's answers. Structured clone recurses per
// level and the event loop's stack ends a few thousand levels down (the answer was lost as a
// `messageerror` and its request waited for its deadline), where go-yaml and encoding/json read
// 10,000; this encoding and its decoding loop instead, and keep what JSON text would not
// (Infinity, NaN, -0).

const PRIMITIVE = 0;
const ARRAY = 1;
const OBJECT = 2;

/** Nesting from which answers are sent flat; below it structured clone is faster. */
export const FLAT_FROM_DEPTH = 1000;

/** How deep `value` nests, counting no further than `enough`. */
export function depthOf(value: unknown, enough: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) max = depth;
    if (max > enough) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

/** A JSON-like value (plain objects, arrays, primitives) as a flat list of primitives. */
export function flatten(value: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') { out.push(PRIMITIVE, v); continue; }
    if (Array.isArray(v)) {
      out.push(ARRAY, v.length);
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    const keys = Object.keys(v);
    out.push(OBJECT, keys.length);
    for (const k of keys) out.push(k);
    for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]!]);
  }
  return out;
}

interface Open { readonly into: unknown[] | Record<string, unknown>; readonly keys: string[] | undefined; next: number; readonly size: number }

/** flatten's inverse. */
export function unflatten(flat: readonly unknown[]): unknown {
  let at = 0;
  let root: unknown;
  const open: Open[] = [];
  const place = (v: unknown): void => {
    const parent = open[open.length - 1];
    if (!parent) { root = v; return; }
    // defineProperty, as JSON.parse makes a key `__proto__` an own property.
    if (parent.keys) Object.defineProperty(parent.into, parent.keys[parent.next]!, { value: v, enumerable: true, writable: true, configurable: true });
    else (parent.into as unknown[])[parent.next] = v;
    parent.next++;
  };
  do {
    const kind = flat[at++];
    const x = flat[at++];
    if (kind === PRIMITIVE) place(x);
    else {
      const size = x as number;
      const keys = kind === OBJECT ? flat.slice(at, at + size) as string[] : undefined;
      if (keys) at += size;
      const into = keys ? {} : new Array(size);
      place(into);
      open.push({ into, keys, next: 0, size });
    }
    while (open.length && open[open.length - 1]!.next === open[open.length - 1]!.size) open.pop();
  } while (open.length);
  return root;
}
