// component-base's cliflag.PrintFlags: every flag of the command, with its value, at V(1), as
// `FLAG: --name="value"` (klog.V(1).Infof("FLAG: --%s=%q", flag.Name, flag.Value)). The value is
// what the pflag Value's String() prints for the flag's type, so an operator can compare the lines
// with a Kubernetes component's. pflag's VisitAll goes by name in byte order (SortFlags), hidden,
// deprecated and not-yet-supported flags included, as upstream's set holds them all.
import { goQuote } from '../go-quote.js';
import { MASKED, maskUrlUserinfo } from '../go-strip-password.js';
import type { Logger } from '../log.js';
import { formatDuration } from './duration.js';
import { formatGoFloat } from './help.js';
import { ipFlagProblem } from './ip.js';
import { parseBool } from './parse-value.js';
import type { FlagSet, FlagSpec } from './types.js';
import { UPSTREAM_VALUE_STRINGS } from './upstream-value-strings.js';


const printed = new WeakSet<FlagSet>();

/**
 * Logs every flag of `flags` at V(1), in pflag's VisitAll order, once: boot calls it when logging
 * is set up from the flags, and the node agent again once its --config file's logging applies (the
 * kubelet prints its flags after that), which prints them only if boot's verbosity did not.
 */
export function printFlags(flags: FlagSet, logger: Logger): void {
  if (printed.has(flags)) return;
  const v1 = logger.v(1);
  if (v1.enabled === false) return;
  printed.add(flags);
  const specs = [...flags.specs()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const spec of specs) v1.info(`FLAG: --${spec.name}=${goQuote(printedValue(spec, flags.get(spec.name)))}`);
}

/**
 * The value as printed, with what can carry a credential masked (plat's difference: upstream prints
 * every value as it is): a flag its plugin marks sensitive, unless it is empty, the user and password of a URL, and the values of the node agent's --manifest-url-header
 * (upstream masks those only in its KubeletConfiguration line).
 */
export function printedValue(spec: FlagSpec, v: unknown): string {
  if (spec.sensitive) {
    const text = flagValueString(spec, v);
    return text === flagValueString(spec, undefined) ? text : MASKED;
  }
  if (spec.name === 'manifest-url-header') return maskedHeaders(Array.isArray(v) ? v.map(String) : []);
  const text = flagValueString(spec, v);
  return spec.type === 'string' ? maskUrlUserinfo(text) : text;
}

/** cliflag.ColonSeparatedMultimapStringString's String() (pairs stably sorted by name), values masked. */
function maskedHeaders(entries: readonly string[]): string {
  // Each value given is Set's comma-separated list of `name:value` pairs.
  const names = entries.flatMap((e) => e.split(',')).filter((p) => p !== '').map((p) => p.slice(0, p.includes(':') ? p.indexOf(':') : p.length).trim());
  return names.map((n, i) => [n, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))
    .map(([n]) => `${n}:${MASKED}`).join(',');
}

/** What upstream's Value.String() prints for a flag of this spec holding `v`. */
export function flagValueString(spec: FlagSpec, v: unknown): string {
  if (spec.typeName === 'version') return versionString(String(v ?? ''));
  const own = UPSTREAM_VALUE_STRINGS[spec.name];
  if (own !== undefined && (spec.type === 'strings' || spec.type === 'stringArray')) return own(Array.isArray(v) ? v.map(String) : []);
  switch (spec.type) {
    case 'bool':
      return v === true ? 'true' : 'false';
    case 'string':
      // pflag's IPVar holds a net.IP: printed in Go's canonical form, `<nil>` when unset.
      if (spec.validate === ipFlagProblem) return goIPString(String(v ?? ''));
      return String(v ?? '');
    case 'int':
    case 'uint64':
    case 'level':
      return String(v ?? 0);
    case 'float':
      return formatGoFloat(Number(v ?? 0));
    case 'float32':
      return formatGoFloat32(Number(v ?? 0));
    case 'duration':
      return formatDuration(Number(v ?? 0));
    case 'quantity':
      // No plat flag is a quantity today; resource.Quantity's canonical text is not rebuilt here.
      return String(v ?? 0);
    case 'strings':
    case 'stringArray':
      // pflag's stringSlice and stringArray: `[` + one CSV record + `]`.
      return `[${csvRecord(Array.isArray(v) ? v.map(String) : [])}]`;
    case 'stringToString': {
      // pflag ranges over a Go map (random order); plat sorts the pairs so two runs compare.
      const pairs = entriesOf(v).map(([k, x]) => `${k}=${x}`).sort();
      return `[${csvRecord(pairs).trim()}]`;
    }
    case 'map':
    case 'configurationMap':
      // cliflag.MapStringString and ConfigurationMap: sorted `k=v` joined by commas, no brackets.
      return entriesOf(v).map(([k, x]) => `${k}=${x}`).sort().join(',');
  }
}

const entriesOf = (v: unknown): Array<[string, string]> =>
  typeof v === 'object' && v !== null ? Object.entries(v).map(([k, x]) => [k, String(x)]) : [];

/** verflag's versionValue: `false`, `true`, `raw`, or the dynamic version given (`v1.32.0-rc.1`). */
function versionString(v: string): string {
  if (v === '') return 'false';
  if (v === 'raw' || v.startsWith('v')) return v;
  try { return parseBool(v) ? 'true' : 'false'; } catch { return v; }
}

/** strconv.FormatFloat(f, 'g', -1, 32): the shortest digits that read back as the same float32. */
export function formatGoFloat32(f: number): string {
  if (!Number.isFinite(f) || f === 0) return formatGoFloat(f);
  for (let p = 1; p <= 9; p++) {
    const shortest = Number(f.toPrecision(p));
    if (Math.fround(shortest) === f) return formatGoFloat(shortest);
  }
  return formatGoFloat(f);
}

// Go's unicode.IsSpace: JavaScript's \s without U+FEFF, with U+0085.
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** encoding/csv's Writer.Write of one record, without its line end (pflag's writeAsCSV). */
export function csvRecord(fields: readonly string[]): string {
  return fields.map((f) => {
    const quote = f !== '' && (f === '\\.' || /[",\r\n]/.test(f) || GO_SPACE.test(f));
    return quote ? `"${f.replace(/"/g, '""')}"` : f;
  }).join(',');
}

/** net.IP's String() of what net.ParseIP reads from `text` (pflag trims it first); `<nil>` for none. */
export function goIPString(text: string): string {
  const bytes = parseIPBytes(text.trim());
  if (bytes === undefined) return '<nil>';
  const v4mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (v4mapped) return bytes.slice(12).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  // The longest run of two or more zero groups (the first of equal ones) becomes `::`.
  let best = -1, bestLen = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i; }
    i = j === i ? i + 1 : j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

function parseIPBytes(s: string): number[] | undefined {
  const v4 = (t: string): number[] | undefined => {
    const parts = t.split('.');
    if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return undefined;
    return parts.map(Number);
  };
  if (!s.includes(':')) {
    const b = v4(s);
    return b && [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...b];
  }
  let text = s;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const b = v4(text.slice(lastColon + 1));
    if (!b) return undefined;
    tail = [(b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!];
    text = text.slice(0, lastColon + 1) + '0'; // a placeholder group, dropped below
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  let groups = [...head, ...rest].map((g) => parseInt(g, 16));
  if (tail.length) groups = [...groups.slice(0, -1), ...tail];
  const wanted = 8;
  if (halves.length === 2) {
    const headLen = head.length;
    const fill = wanted - groups.length;
    if (fill < 1) return undefined;
    groups = [...groups.slice(0, headLen), ...new Array<number>(fill).fill(0), ...groups.slice(headLen)];
  } else if (groups.length !== wanted) return undefined;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}
