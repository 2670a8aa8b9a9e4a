// Decoding a NodeAgentConfiguration document (YAML or JSON) the way upstream's codec does: YAML is
// turned into JSON through a map (so keys reach the decoder sorted), JSON is read as written; the
// document is checked against the v1beta1 field types and decoding stops at the first error a Go
// unmarshaler returns (`time: invalid duration "soon"`), else answers the first type mismatch it
// saved (`json: cannot unmarshal string into Go struct field NodeAgentWebhookAuthentication.
// authentication.webhook.enabled of type bool`: the innermost struct, then the struct fields from
// the root, without map keys or list indexes). Strict problems do not stop it: for YAML, go-yaml's
// repeated keys (`yaml: unmarshal errors:\n  line 4: key "port" already set in map`) come first,
// then unknown fields; for JSON, unknown and duplicate fields. `null` leaves a field unset.
import type { Node } from 'yaml';
import { yaml } from '../../core/yaml-module.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { yamlDuplicateKeys, yamlUnmarshalErrors } from '../../core/server/yaml-strict.js';
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
  /** The repeated keys among them, which a map (a drop-in's Unstructured) refuses too. */
  readonly duplicates: readonly string[];
  /** Fatal problems: wrong types, bad durations or quantities. */
  readonly fatal: readonly string[];
}

export class DecodeError extends Error {}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Parsed {
  readonly value: Json;
  /** Read as JSON (upstream's serializer sniffs a leading `{`): keys keep the document's order. */
  readonly json: boolean;
  /** go-yaml's strict errors for YAML (`line N: key "k" already set in map`); JSON's duplicate fields. */
  readonly yamlDuplicates: readonly string[];
  readonly jsonDuplicates: readonly string[];
}

/** Parses YAML or JSON text into JSON values; a repeated key's last value wins, as YAMLToJSON keeps it. */
export function parseText(text: string): Parsed {
  // Upstream reads it through sigs.k8s.io/yaml: YAML 1.1 scalars (`failSwapOn: no`, `0644`).
  const doc = yaml().parseDocument(text, { ...GO_YAML, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length) throw new DecodeError(doc.errors[0]!.message.split('\n')[0]!);
  const json = text.trimStart().startsWith('{');
  const jsonDuplicates: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (yaml().isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = yaml().isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const p = path ? `${path}.${key}` : key;
        if (seen.has(key)) jsonDuplicates.push(`duplicate field "${p}"`);
        seen.add(key);
        walk(pair.value, p);
      }
    } else if (yaml().isSeq(node)) {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  if (json) walk(doc.contents as Node | null, '');
  const yamlDuplicates = json ? [] : yamlDuplicateKeys(text);
  return { value: (doc.toJS({ maxAliasCount: 100 }) ?? null) as Json, json, yamlDuplicates, jsonDuplicates };
}

// reflect's names: a duration's JSON is decoded by metav1.Duration.UnmarshalJSON into a string first,
// a number for TimeOrMetaDuration into a time.Duration.
const GO_TYPES: Record<string, string> = {
  bool: 'bool', int32: 'int32', int64: 'int64', uint32: 'uint32', float64: 'float64', string: 'string',
  duration: 'string', timeOrMetaDuration: 'time.Duration', quantity: 'resource.QuantityValue',
};

/** The Go package a plat struct is declared in (v1beta1 unless component-base's or core's). */
const GO_PACKAGES: Record<string, string> = {
  Taint: 'v1', LoggingConfiguration: 'v1', VModuleItem: 'v1', FormatOptions: 'v1', TextOptions: 'v1', JSONOptions: 'v1', TracingConfiguration: 'v1',
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

interface Walk {
  readonly sorted: boolean;
  strict: string[];
  /** The first type mismatch, which decoding saves and goes on. */
  saved?: string;
  /** An unmarshaler's error, which ends decoding. */
  aborted?: string;
}

/** Go's errorContext: the innermost struct and the struct fields from the root. */
interface Context { readonly struct: string; readonly fields: readonly string[] }

const keysOf = (o: JsonObject, w: Walk) => (w.sorted ? Object.keys(o).sort() : Object.keys(o));

function check(type: FieldType, v: Json, path: string, w: Walk, ctx: Context): Json | undefined {
  const typeError = (what: string, goType: string) =>
    `json: cannot unmarshal ${what} into Go ${ctx.fields.length ? `struct field ${ctx.struct}.${ctx.fields.join('.')}` : 'value'} of type ${goType}`;
  const mismatch = (what = jsonKind(v)) => { w.saved ??= typeError(what, goName(type)); return undefined; };
  const abort = (message: string) => { w.aborted = message; return undefined; };
  switch (type.kind) {
    case 'object': {
      if (!isObject(v)) return mismatch();
      const out: JsonObject = {};
      for (const k of keysOf(v, w)) {
        if (w.aborted) break;
        const x = v[k]!;
        const f = type.fields[k];
        const p = path ? `${path}.${k}` : k;
        if (f === undefined) { w.strict.push(`unknown field "${p}"`); continue; }
        if (x === null) continue;
        const kept = check(f.type, x, p, w, { struct: type.go, fields: [...ctx.fields, k] });
        if (kept !== undefined) out[k] = kept;
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(v)) return mismatch();
      const out: Json[] = [];
      for (const [i, x] of v.entries()) {
        if (w.aborted) break;
        const kept = x === null ? null : check(type.of, x, `${path}[${i}]`, w, ctx);
        if (kept !== undefined) out.push(kept);
      }
      return out;
    }
    case 'map': {
      if (!isObject(v)) return mismatch();
      const out: JsonObject = {};
      for (const k of keysOf(v, w)) {
        if (w.aborted) break;
        const x = v[k]!;
        if (x === null) continue;
        const kept = check(type.of, x, `${path}[${k}]`, w, ctx);
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
      // metav1.Duration.UnmarshalJSON's own errors end decoding; the decoder then names the field.
      if (typeof v !== 'string') return abort(typeError(jsonKind(v), 'string'));
      try { parseDurationNanos(v); } catch (e) { return abort((e as Error).message); }
      return v;
    }
    case 'timeOrMetaDuration': {
      // A number is read into a time.Duration, a string as metav1.Duration reads it.
      if (typeof v === 'number') return Number.isInteger(v) ? v : abort(typeError(`number ${v}`, 'time.Duration'));
      if (typeof v !== 'string') return abort(typeError(jsonKind(v), 'time.Duration'));
      try { parseDurationNanos(v); } catch (e) { return abort((e as Error).message); }
      return v;
    }
    case 'quantity': {
      // Quantity.UnmarshalJSON parses whatever JSON text it is given (quotes trimmed).
      try { parseQuantity(typeof v === 'string' ? v : JSON.stringify(v)); } catch (e) { return abort((e as Error).message); }
      return String(v);
    }
  }
}

function goName(type: FieldType): string {
  switch (type.kind) {
    case 'object': return `${GO_PACKAGES[type.go] ?? 'v1beta1'}.${type.go}`;
    case 'list': return `[]${goName(type.of)}`;
    case 'map': return `map[string]${goName(type.of)}`;
    default: return GO_TYPES[type.kind]!;
  }
}

/**
 * Checks a parsed document (with apiVersion and kind) against the configuration's field types.
 * `parsed` gives the strict errors found while parsing and whether keys are decoded sorted (YAML).
 */
export function decodeConfiguration(value: Json, parsed?: Pick<Parsed, 'json' | 'yamlDuplicates' | 'jsonDuplicates'>): Decoded {
  const w: Walk = { sorted: parsed ? !parsed.json : false, strict: [] };
  if (!isObject(value)) {
    return { object: {}, strict: [], duplicates: [], fatal: [`json: cannot unmarshal ${value === null ? 'null' : jsonKind(value)} into Go value of type NodeAgentConfiguration`] };
  }
  const object = (check(CONFIG_TYPE, value, '', w, { struct: 'NodeAgentConfiguration', fields: [] }) ?? {}) as JsonObject;
  const fatal = w.aborted ?? w.saved;
  const yaml = parsed?.yamlDuplicates.length ? [yamlUnmarshalErrors(parsed.yamlDuplicates)] : [];
  const duplicates = [...yaml, ...(parsed?.jsonDuplicates ?? [])];
  return { object, strict: [...yaml, ...w.strict, ...(parsed?.jsonDuplicates ?? [])], duplicates, fatal: fatal === undefined ? [] : [fatal] };
}
