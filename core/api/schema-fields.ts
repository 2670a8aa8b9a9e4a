// Walks an object against its resource schema to find (and drop) fields the schema does not know,
// for fieldValidation=Strict|Warn|Ignore. Paths are printed as apimachinery prints them:
// `spec.foo`, `spec.items[0].bar`.
import type { JsonSchema } from '../registry/resource.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Removes unknown fields from `value` in place and returns their paths. */
export function pruneUnknownFields(value: unknown, schema: JsonSchema, path = ''): string[] {
  const unknown: string[] = [];
  if (schema['x-kubernetes-preserve-unknown-fields']) return unknown;
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((v, i) => unknown.push(...pruneUnknownFields(v, schema.items!, `${path}[${i}]`)));
    return unknown;
  }
  if (!isObject(value)) return unknown;
  const props = schema.properties;
  const extra = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    const sub = props?.[key] ?? (typeof extra === 'object' ? extra : undefined);
    if (sub) unknown.push(...pruneUnknownFields(value[key], sub, child));
    else if (props && extra !== true) {
      unknown.push(child);
      delete value[key];
    }
  }
  return unknown;
}

/**
 * Finds keys that occur twice in one JSON object of `text` (JSON.parse silently keeps the last),
 * returning their paths as apimachinery's strict decoder names them. Runs on every write body, so
 * it scans by character code, skips string values without decoding them and decodes a key only
 * when it holds an escape.
 */
export function duplicateJsonFields(text: string): string[] {
  const dups: string[] = [];
  const n = text.length;
  let i = 0;
  const ws = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
    }
  };
  /** From the opening quote at i to just past the closing one; returns where the token started. */
  const skipString = (): number => {
    const start = i;
    for (let from = start + 1; ;) {
      const q = text.indexOf('"', from);
      if (q < 0) { i = n; return start; }
      let backslashes = 0;
      for (let k = q - 1; k > start && text.charCodeAt(k) === 0x5c; k--) backslashes++;
      from = q + 1;
      if (backslashes % 2 === 0) { i = from; return start; }
    }
  };
  const key = (): string => {
    const start = skipString();
    const raw = text.slice(start + 1, i - 1);
    if (!raw.includes('\\')) return raw;
    try { return JSON.parse(text.slice(start, i)) as string; } catch { return ''; }
  };
  const val = (path: string): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 0x7b) { // {
      i++;
      const seen = new Set<string>();
      ws();
      if (text.charCodeAt(i) === 0x7d) { i++; return; }
      while (i < n) {
        ws();
        const k = key();
        const child = path ? `${path}.${k}` : k;
        if (seen.has(k)) dups.push(child);
        seen.add(k);
        ws(); i++; // ':'
        val(child);
        ws();
        if (text.charCodeAt(i++) !== 0x2c) return; // ,
      }
    } else if (c === 0x5b) { // [
      i++;
      ws();
      if (text.charCodeAt(i) === 0x5d) { i++; return; }
      for (let at = 0; i < n; at++) {
        val(`${path}[${at}]`);
        ws();
        if (text.charCodeAt(i++) !== 0x2c) return;
      }
    } else if (c === 0x22) skipString();
    else {
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) return;
      }
    }
  };
  try { val(''); } catch { /* malformed JSON is reported by JSON.parse */ }
  return dups;
}
