// JSON merge patch (RFC 7386), what upstream's mergeKubeletConfigurations applies for each drop-in
// (evanphx/json-patch MergePatch): objects merge key by key and recursively, `null` removes a key,
// anything else (lists included) replaces the target's value whole.
import { isObject, type Json } from './decode.js';

export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: { [k: string]: Json } = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

/** Every leaf path a patch sets (dotted; lists and map values count as leaves of their field). */
export function patchedPaths(patch: Json, prefix = ''): string[] {
  if (!isObject(patch)) return prefix ? [prefix] : [];
  const paths = Object.entries(patch).flatMap(([k, v]) => patchedPaths(v, prefix ? `${prefix}.${k}` : k));
  return paths.length || !prefix ? paths : [prefix];
}
