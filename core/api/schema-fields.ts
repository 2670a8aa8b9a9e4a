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
 * returning their paths as apimachinery's strict decoder names them.
 */
export function duplicateJsonFields(text: string): string[] {
  const dups: string[] = [];
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++; };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try { return JSON.parse(text.slice(start, i)) as string; } catch { return ''; }
  };
  const val = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') { i++; return; }
      while (i < text.length) {
        ws();
        const key = str();
        const child = path ? `${path}.${key}` : key;
        if (seen.has(key)) dups.push(child);
        seen.add(key);
        ws(); i++; // ':'
        val(child);
        ws();
        if (text[i++] !== ',') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; i < text.length; n++) {
        val(`${path}[${n}]`);
        ws();
        if (text[i++] !== ',') return;
      }
    } else if (c === '"') str();
    else while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
  };
  try { val(''); } catch { /* malformed JSON is reported by JSON.parse */ }
  return dups;
}
