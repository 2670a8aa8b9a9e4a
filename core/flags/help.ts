// --help in the shape Kubernetes components print it (cobra + pflag + cliflag sections): a usage
// line, then one block per section, each flag as `      --name type   help (default X)`, the
// help column aligned within the section and wrapped the way pflag's FlagUsagesWrapped wraps.
// Deprecated flags are left out, as pflag's MarkDeprecated hides them (unless a flag asks to stay
// listed, then with `(DEPRECATED: ...)` as pflag prints it); unsupported ones stay listed (so
// --help matches the spec) with the reason at the end.
import type { FlagSpec, FlagType } from './types.js';
import { formatDuration } from './duration.js';
import { zeroValue } from './parse-value.js';
import { MASKED } from '../go-strip-password.js';

/** pflag's Type() names, shortened the way pflag's UnquoteUsage does; bools show no type. */
const TYPE_NAMES: Record<FlagType, string> = {
  bool: '',
  string: 'string',
  int: 'int',
  uint64: 'uint',
  level: 'Level', // component-base's VerbosityLevelPflag
  float: 'float', // pflag prints float64 as `float`
  float32: 'float32',
  duration: 'duration',
  strings: 'strings',
  stringArray: 'stringArray',
  map: 'mapStringString',
  configurationMap: 'mapStringString',
  stringToString: 'stringToString',
  quantity: 'quantity',
};

/** Go's strconv.FormatFloat(f, 'g', -1, 64): `10`, `0.02`, `1e+06`. */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return '0';
  const [mantissa = '0', expText = '0'] = f.toExponential().split('e');
  const exp = Number(expText);
  // Shortest 'g' switches to exponent form below 1e-4 and from 1e6 up (Go uses precision 6 for the decision).
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}

/** pflag's DefValue text of a parsed value, or undefined when it is the zero value (not printed). */
export function formatDefault(spec: FlagSpec): string | undefined {
  const v = spec.default ?? zeroValue(spec.type);
  switch (spec.type) {
    case 'bool':
      return v === true ? 'true' : undefined;
    case 'string':
      return typeof v === 'string' && v !== '' ? JSON.stringify(v) : undefined;
    case 'int':
    case 'uint64':
    case 'level':
    case 'quantity':
      return typeof v === 'number' && v !== 0 ? String(v) : undefined;
    case 'float':
    case 'float32':
      return typeof v === 'number' && v !== 0 ? formatGoFloat(v) : undefined;
    case 'duration':
      return typeof v === 'number' && v !== 0 ? formatDuration(v) : undefined;
    case 'strings':
    case 'stringArray':
      return Array.isArray(v) && v.length > 0 ? `[${v.map((x) => csvField(String(x))).join(',')}]` : undefined;
    case 'map':
    case 'configurationMap':
    case 'stringToString': {
      const entries = typeof v === 'object' && v !== null ? Object.entries(v) : [];
      return entries.length > 0 ? `[${entries.map(([k, x]) => `${k}=${String(x)}`).join(',')}]` : undefined;
    }
  }
}

function csvField(s: string): string {
  return /[",\n]/.test(s) || s.startsWith(' ') ? `"${s.replace(/"/g, '""')}"` : s;
}

/** pflag's wrapN: split off up to `i` characters at the last blank, allowing `slop` overflow. */
function wrapN(i: number, slop: number, s: string): [string, string] {
  if (i + slop > s.length) return [s, ''];
  const head = s.slice(0, i);
  const w = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\t'), head.lastIndexOf('\n'));
  if (w <= 0) return [s, ''];
  const nl = head.lastIndexOf('\n');
  if (nl > 0 && nl < w) return [s.slice(0, nl), s.slice(nl + 1)];
  return [s.slice(0, w), s.slice(w + 1)];
}

/** pflag's wrap: text starting at column `i` of a `w`-column terminal; 0 means do not wrap. */
export function wrap(i: number, w: number, s: string): string {
  if (w === 0) return s.replace(/\n/g, '\n' + ' '.repeat(i));
  let room = w - i;
  let r = '';
  if (room < 24) {
    // Too little room beside the names: put the text on the next lines as a block.
    i = 16;
    room = w - i;
    r += '\n' + ' '.repeat(i);
  }
  if (room < 24) return r + s.replace(/\n/g, r);
  const slop = 5;
  room -= slop;
  const pad = ' '.repeat(i);
  let [line, rest] = wrapN(room, slop, s);
  r += line.replace(/\n/g, '\n' + pad);
  while (rest !== '') {
    [line, rest] = wrapN(room, slop, rest);
    r += '\n' + pad + line.replace(/\n/g, '\n' + pad);
  }
  return r;
}

/** One section's flags, aligned as pflag's FlagUsagesWrapped aligns them. */
export function renderFlagLines(specs: readonly FlagSpec[], width: number): string {
  const rows: Array<[string, string]> = [];
  let maxlen = 0;
  for (const spec of specs) {
    let left = spec.shorthand !== undefined ? `  -${spec.shorthand}, --${spec.name}` : `      --${spec.name}`;
    const typeName = spec.typeName ?? TYPE_NAMES[spec.type];
    if (typeName !== '') left += ' ' + typeName;
    if (spec.noOptValue !== undefined) {
      // pflag decides by the value's Type(): `--version version[=true]` is a string underneath.
      if (typeName === 'string') left += `[="${spec.noOptValue}"]`;
      else if (spec.type !== 'bool' || spec.noOptValue !== 'true') left += `[=${spec.noOptValue}]`;
    }
    maxlen = Math.max(maxlen, left.length + 1); // + 1: pflag counts its alignment marker
    let text = spec.help;
    const def = formatDefault(spec);
    // A secret's default is said to exist, never shown: help goes to terminals and CI logs.
    if (def !== undefined) text += ` (default ${spec.sensitive ? MASKED : def})`;
    if (spec.deprecated !== undefined && spec.deprecatedShown) text += ` (DEPRECATED: ${spec.deprecated})`;
    if (spec.unsupported !== undefined) text += ` (not supported yet: ${spec.unsupported})`;
    rows.push([left, text]);
  }
  return rows.map(([left, text]) => `${left} ${' '.repeat(maxlen - left.length)} ${wrap(maxlen + 2, width, text)}`).join('\n');
}

/**
 * The whole --help text: description, usage line, then sections in the order given. Flags marked
 * deprecated are omitted unless they ask to be shown.
 */
export function renderHelp(
  sections: ReadonlyMap<string, readonly FlagSpec[]>,
  commandLine: string,
  description: string,
  width: number,
): string {
  const parts: string[] = [];
  if (description.trim() !== '') parts.push(description.trimEnd() + '\n');
  parts.push(`Usage:\n  ${commandLine}\n`);
  for (const [section, specs] of sections) {
    const shown = specs.filter((s) => s.deprecated === undefined || s.deprecatedShown);
    if (shown.length === 0) continue;
    parts.push(`${section}:\n\n${renderFlagLines(shown, width)}\n`);
  }
  return parts.join('\n');
}
