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
    // Pushed one by one: a million unknown fields spread as arguments overflow the stack.
    if (schema.items) value.forEach((v, i) => { for (const p of pruneUnknownFields(v, schema.items!, `${path}[${i}]`)) unknown.push(p); });
    return unknown;
  }
  if (!isObject(value)) return unknown;
  const props = schema.properties;
  const extra = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    const sub = props?.[key] ?? (typeof extra === 'object' ? extra : undefined);
    if (sub) for (const p of pruneUnknownFields(value[key], sub, child)) unknown.push(p);
    else if (props && extra !== true) {
      unknown.push(child);
      delete value[key];
    }
  }
  return unknown;
}

/** A number as the body wrote it, where JSON.parse's double may not be what Go's decoder saw. */
export interface NumberLiteral { segments: string[]; literal: string }

/** What one scan of a write body's text finds that JSON.parse hides. */
export interface JsonTextScan {
  /** Keys that occur twice in one object (JSON.parse silently keeps the last), by path. */
  duplicates: string[];
  /**
   * Numbers written with a fraction or an exponent, or with more digits than a double holds:
   * Go refuses `1.0` and `1e3` for an integer field that JSON.parse reads as 1 and 1000.
   */
  numbers: NumberLiteral[];
}

/**
 * Scans `text` for duplicate keys, returning their paths as apimachinery's strict decoder names
 * them, and for number literals JSON.parse reads inexactly. Runs on every write body, so it scans
 * by character code, skips string values without decoding them and decodes a key only when it
 * holds an escape.
 */
export function scanJsonText(text: string): JsonTextScan {
  const dups: string[] = [];
  const numbers: NumberLiteral[] = [];
  const segments: string[] = [];
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
        segments.push(k);
        val(child);
        segments.pop();
        ws();
        if (text.charCodeAt(i++) !== 0x2c) return; // ,
      }
    } else if (c === 0x5b) { // [
      i++;
      ws();
      if (text.charCodeAt(i) === 0x5d) { i++; return; }
      for (let at = 0; i < n; at++) {
        segments.push(String(at));
        val(`${path}[${at}]`);
        segments.pop();
        ws();
        if (text.charCodeAt(i++) !== 0x2c) return;
      }
    } else if (c === 0x22) skipString();
    else {
      const start = i;
      const number = c === 0x2d || (c >= 0x30 && c <= 0x39);
      let inexact = false;
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
        if (d === 0x2e || d === 0x65 || d === 0x45) inexact = true; // . e E
      }
      if (number && (inexact || i - start > 15)) numbers.push({ segments: [...segments], literal: text.slice(start, i) });
    }
  };
  try { val(''); } catch { /* malformed JSON is reported by JSON.parse */ }
  return { duplicates: dups, numbers };
}
