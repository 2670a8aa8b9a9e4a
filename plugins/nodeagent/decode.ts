// Decoding a NodeAgentConfiguration document (YAML or JSON) the way upstream's codec does: the
// document is turned into JSON, checked against the v1beta1 field types (a value of the wrong type
// is fatal: `json: cannot unmarshal string into Go struct field NodeAgentConfiguration.port of
// type int32`), and decoded strictly; unknown and duplicate fields make the strict decoding fail
// (`strict decoding error: unknown field "foo", duplicate field "port"`), upon which upstream falls
// back to lenient decoding and only logs the error, which the caller does. `null` leaves a field
// unset, as in Go.
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { parseDurationNanos } from '../../core/flags/duration.js';
import { parseQuantity } from '../../core/flags/quantity.js';
import { CONFIG_TYPE, type FieldType } from '../../core/nodeagent/fields.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface Decoded {
  /** The document with unknown fields and nulls dropped. */
  readonly object: JsonObject;
  /** Strict decoding problems (unknown or duplicate fields); the document is still usable. */
  readonly strict: readonly string[];
  /** Fatal problems: wrong types, bad durations or quantities. */
  readonly fatal: readonly string[];
}

export class DecodeError extends Error {}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses YAML or JSON text into JSON values; duplicate keys are reported (dotted paths), the last one wins. */
export function parseText(text: string): { value: Json; duplicates: string[] } {
  // Upstream reads it through sigs.k8s.io/yaml: YAML 1.1 scalars (`failSwapOn: no`, `0644`).
  const doc = parseDocument(text, { ...GO_YAML, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length) throw new DecodeError(doc.errors[0]!.message.split('\n')[0]!);
  const duplicates: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const p = path ? `${path}.${key}` : key;
        if (seen.has(key)) duplicates.push(p);
        seen.add(key);
        walk(pair.value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  walk(doc.contents as Node | null, '');
  return { value: (doc.toJS({ maxAliasCount: 100 }) ?? null) as Json, duplicates };
}

const GO_TYPES: Record<string, string> = {
  bool: 'bool', int32: 'int32', int64: 'int64', uint32: 'uint32', float64: 'float64', string: 'string',
  duration: 'v1.Duration', timeOrMetaDuration: 'v1.TimeOrMetaDuration', quantity: 'resource.QuantityValue',
};

function jsonKind(v: Json): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

const INT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

interface Walk { strict: string[]; fatal: string[] }

function check(type: FieldType, v: Json, path: string, w: Walk, goType: string): Json | undefined {
  const mismatch = (what = jsonKind(v)) => {
    w.fatal.push(`json: cannot unmarshal ${what} into Go struct field NodeAgentConfiguration.${path} of type ${goType}`);
    return undefined;
  };
  switch (type.kind) {
    case 'object': {
      if (!isObject(v)) return mismatch();
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        const f = type.fields[k];
        const p = path ? `${path}.${k}` : k;
        if (f === undefined) { w.strict.push(`unknown field "${p}"`); continue; }
        if (x === null) continue;
        const kept = check(f.type, x, p, w, goName(f.type));
        if (kept !== undefined) out[k] = kept;
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(v)) return mismatch();
      const out: Json[] = [];
      v.forEach((x, i) => {
        const kept = x === null ? null : check(type.of, x, `${path}[${i}]`, w, goName(type.of));
        if (kept !== undefined) out.push(kept);
      });
      return out;
    }
    case 'map': {
      if (!isObject(v)) return mismatch();
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        if (x === null) continue;
        const kept = check(type.of, x, `${path}[${k}]`, w, goName(type.of));
        if (kept !== undefined) out[k] = kept;
      }
      return out;
    }
    case 'bool':
      return typeof v === 'boolean' ? v : mismatch();
    case 'string':
      return typeof v === 'string' ? v : mismatch();
    case 'float64':
      return typeof v === 'number' ? v : mismatch();
    case 'int32': case 'int64': case 'uint32': {
      if (typeof v !== 'number') return mismatch();
      const [lo, hi] = INT_RANGES[type.kind]!;
      return Number.isInteger(v) && v >= lo && v <= hi ? v : mismatch(`number ${v}`);
    }
    case 'duration': {
      if (typeof v !== 'string') return mismatch();
      try { parseDurationNanos(v); } catch (e) { w.fatal.push(`${path}: ${(e as Error).message}`); return undefined; }
      return v;
    }
    case 'timeOrMetaDuration': {
      if (typeof v === 'number') return Number.isInteger(v) ? v : mismatch(`number ${v}`);
      if (typeof v !== 'string') return mismatch();
      try { parseDurationNanos(v); } catch (e) { w.fatal.push(`${path}: ${(e as Error).message}`); return undefined; }
      return v;
    }
    case 'quantity': {
      if (typeof v !== 'string' && typeof v !== 'number') return mismatch();
      try { parseQuantity(String(v)); } catch (e) { w.fatal.push(`${path}: ${(e as Error).message}`); return undefined; }
      return String(v);
    }
  }
}

function goName(type: FieldType): string {
  switch (type.kind) {
    case 'object': return type.go;
    case 'list': return `[]${goName(type.of)}`;
    case 'map': return `map[string]${goName(type.of)}`;
    default: return GO_TYPES[type.kind]!;
  }
}

/** Checks a parsed document (with apiVersion and kind) against the configuration's field types. */
export function decodeConfiguration(value: Json, duplicates: readonly string[] = []): Decoded {
  const w: Walk = { strict: [], fatal: [] };
  if (!isObject(value)) {
    return { object: {}, strict: [], fatal: [`json: cannot unmarshal ${value === null ? 'null' : jsonKind(value)} into Go value of type NodeAgentConfiguration`] };
  }
  const object = (check(CONFIG_TYPE, value, '', w, 'NodeAgentConfiguration') ?? {}) as JsonObject;
  return { object, strict: [...w.strict, ...duplicates.map((d) => `duplicate field "${d}"`)], fatal: w.fatal };
}
