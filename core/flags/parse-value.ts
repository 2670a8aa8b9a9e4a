// Text -> typed flag value, with the error texts of Go's strconv and of pflag, so that a
// mistyped value reads as it would from a Kubernetes component:
// `strconv.ParseInt: parsing "abc": invalid syntax`.
import type { FlagType } from './types.js';
import { parseDuration } from './duration.js';
import { parseQuantity } from './quantity.js';
import { parseFloatGo, parseIntBase0, parseUintBase0Go } from './go-strconv.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const q = (s: string) => JSON.stringify(s);

/** Go's strconv.ParseBool. */
export function parseBool(s: string): boolean {
  switch (s) {
    case '1': case 't': case 'T': case 'true': case 'TRUE': case 'True':
      return true;
    case '0': case 'f': case 'F': case 'false': case 'FALSE': case 'False':
      return false;
    default:
      throw new Error(`strconv.ParseBool: parsing ${q(s)}: invalid syntax`);
  }
}

/**
 * Go's strconv.ParseInt(s, 0, 32), as pflag's int flags parse (base 0: 0x hex, 0o / leading-0
 * octal, 0b binary, `_` between digits). Int flags are int32 so a value that a Go component would
 * truncate on 32-bit builds is refused everywhere.
 */
export function parseInt32(s: string): number {
  return Number(parseIntBase0(s, 32));
}

/**
 * pflag's Uint64Var: strconv.ParseUint(s, 0, 64). plat holds the value as a number, so one above
 * 2^53-1 (which a number cannot hold exactly) is refused rather than rounded.
 */
export function parseUint64(s: string): number {
  const v = parseUintBase0Go(s, 64);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`parsing ${q(s)}: above ${Number.MAX_SAFE_INTEGER}, the largest integer plat holds exactly`);
  return Number(v);
}

/**
 * klog's verbosity as component-base's VerbosityLevelPflag reads it: strconv.ParseUint(s, 10, 31),
 * decimal digits only (no sign, no prefix), at most 2^31-1.
 */
export function parseLevel(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw new Error(`strconv.ParseUint: parsing ${q(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > BigInt(INT32_MAX)) throw new Error(`strconv.ParseUint: parsing ${q(s)}: value out of range`);
  return Number(v);
}

/** Go's strconv.ParseFloat(s, 64), as pflag's float64 flags parse. */
export function parseFloat64(s: string): number {
  return parseFloatGo(s);
}

/**
 * Go's strconv.ParseFloat(s, 32), as pflag's Float32Var parses: the float64 value rounded to
 * float32, and a range error for what float32 cannot hold (`1e39`), as Go gives for overflow.
 */
export function parseFloat32(s: string): number {
  const v = parseFloat64(s);
  const f = Math.fround(v);
  if (Number.isFinite(v) && !Number.isFinite(f)) throw new Error(`strconv.ParseFloat: parsing ${q(s)}: value out of range`);
  return f;
}

/**
 * One line of CSV, as pflag's string slices read their value: `a,"b,c"` is two items. An empty
 * text is the empty list, which is how `--cors-allowed-origins=` clears a list.
 */
export function splitCsv(s: string): string[] {
  if (s === '') return [];
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (s[i] === '"') {
      const start = i;
      i++;
      for (;;) {
        if (i >= s.length) throw new Error(`parse error on line 1, column ${start + 1}: extraneous or missing " in quoted-field`);
        const c = s[i];
        if (c === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += c;
        i++;
      }
      if (i < s.length && s[i] !== ',') throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
    } else {
      const end = s.indexOf(',', i);
      field = end === -1 ? s.slice(i) : s.slice(i, end);
      const bare = field.indexOf('"');
      if (bare !== -1) throw new Error(`parse error on line 1, column ${i + bare + 1}: bare " in non-quoted-field`);
      i = end === -1 ? s.length : end;
    }
    out.push(field);
    if (i >= s.length) return out;
    i++; // the comma
    if (i >= s.length) {
      out.push('');
      return out;
    }
  }
}

/** `k=v,k2=v2` (pflag's stringToString); whitespace around keys and values is dropped, as Kubernetes' MapStringString does. */
export function parseMapPairs(s: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const pair of splitCsv(s)) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq === -1) throw new Error(`${pair} must be formatted as key=value`);
    out.push([pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()]);
  }
  return out;
}

/**
 * cliflag.ConfigurationMap (`--runtime-config`): plain comma split, no quoting; a pair without `=`
 * is the key with an empty value (its reader decides what that means: true for runtime-config).
 */
export function parseConfigurationMap(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of s.split(',')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq === -1) out[pair.trim()] = '';
    else out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/**
 * pflag's stringToString (upstream's StringToStringVar, unlike cliflag's MapStringString): a text
 * with one `=` is one pair whole, so `--allow-metric-labels=metric,label=v1,v2` is key
 * `metric,label` with value `v1,v2`; with more, the text is a CSV line of pairs (quote each).
 */
export function parseStringToString(s: string): Record<string, string> {
  const equals = s.split('=').length - 1;
  if (equals === 0) throw new Error(`${s} must be formatted as key=value`);
  const pairs = equals === 1 ? [s.replace(/^"+|"+$/g, '')] : splitCsv(s);
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq === -1) throw new Error(`${pair} must be formatted as key=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** A single value of a scalar flag type from its text. List and map types go through splitCsv / parseMapPairs. */
export function parseScalar(type: FlagType, s: string): unknown {
  switch (type) {
    case 'bool': return parseBool(s);
    case 'string': return s;
    case 'int': return parseInt32(s);
    case 'uint64': return parseUint64(s);
    case 'level': return parseLevel(s);
    case 'float': return parseFloat64(s);
    case 'float32': return parseFloat32(s);
    case 'duration': return parseDuration(s);
    case 'quantity': return parseQuantity(s);
    case 'strings': return splitCsv(s);
    case 'stringArray': return [s];
    case 'map': return Object.fromEntries(parseMapPairs(s));
    case 'configurationMap': return parseConfigurationMap(s);
    case 'stringToString': return parseStringToString(s);
  }
}

/** True when `v` is a value of the parsed representation of `type` (used to check declared defaults). */
export function isOfType(type: FlagType, v: unknown): boolean {
  switch (type) {
    case 'bool': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'int': return Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX;
    case 'uint64': return Number.isSafeInteger(v) && (v as number) >= 0;
    case 'level': return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT32_MAX;
    case 'float': case 'duration': case 'quantity': return typeof v === 'number';
    case 'float32': return typeof v === 'number' && (!Number.isFinite(v) || Number.isFinite(Math.fround(v)));
    case 'strings': case 'stringArray': return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'map':
    case 'configurationMap':
    case 'stringToString':
      return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
  }
}

/** The zero value of a type: what `get` returns for a flag declared without a default. */
export function zeroValue(type: FlagType): unknown {
  switch (type) {
    case 'bool': return false;
    case 'string': return '';
    case 'int': case 'uint64': case 'level': case 'float': case 'float32': case 'duration': case 'quantity': return 0;
    case 'strings': case 'stringArray': return [];
    case 'map': case 'configurationMap': case 'stringToString': return {};
  }
}
