// A strict reader of the Prometheus text format 0.0.4 as client_golang writes it, for tests that
// check a whole scrape: every line is a HELP, a TYPE or a sample of the family they announce
// (a histogram's _bucket/_sum/_count, a summary's _sum/_count), each family once, in name order,
// label names valid and not repeated, values Go floats; a histogram's buckets are cumulative,
// increasing in `le`, and end with +Inf equal to its _count. Anything else throws, naming the line.
export interface ParsedSample { readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number }
export interface ParsedFamily { readonly name: string; readonly help: string; readonly type: string; readonly samples: ParsedSample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: bad value ${JSON.stringify(text)}`);
  return Number(text);
}

function parseLabels(text: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: label without '='`);
    const name = text.slice(i, eq);
    if (!LABEL.test(name)) throw new Error(`${where}: bad label name ${JSON.stringify(name)}`);
    if (name in out) throw new Error(`${where}: label ${name} repeated`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') { value += text[j]; continue; }
      const next = text[++j];
      if (next === 'n') value += '\n';
      else if (next === '\\' || next === '"') value += next;
      else throw new Error(`${where}: bad escape \\${next}`);
    }
    if (j >= text.length) throw new Error(`${where}: unterminated label value`);
    out[name] = value;
    i = j + 1;
    if (i < text.length) {
      if (text[i] !== ',') throw new Error(`${where}: expected ',' after label ${name}`);
      i++;
    }
  }
  return out;
}

function checkHistogram(f: ParsedFamily): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(rest);
    let h = series.get(key);
    if (!h) series.set(key, (h = { buckets: [] }));
    if (s.name === `${f.name}_bucket`) {
      if (le === undefined) throw new Error(`${f.name}: a bucket without le`);
      h.buckets.push([parseValue(le, f.name), s.value]);
    } else if (s.name === `${f.name}_count`) h.count = s.value;
    else h.sum = s.value;
  }
  for (const [key, h] of series) {
    const where = `${f.name}${key}`;
    if (h.count === undefined || h.sum === undefined) throw new Error(`${where}: _sum or _count missing`);
    const last = h.buckets.at(-1);
    if (!last || last[0] !== Infinity || last[1] !== h.count) throw new Error(`${where}: the last bucket is not le="+Inf" with the count`);
    h.buckets.forEach(([le, n], i) => {
      if (i > 0 && (le <= h.buckets[i - 1]![0] || n < h.buckets[i - 1]![1])) throw new Error(`${where}: buckets not cumulative in increasing le`);
    });
  }
}

export function parseExposition(text: string): Map<string, ParsedFamily> {
  const families = new Map<string, ParsedFamily>();
  if (text === '') return families;
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  let current: ParsedFamily | undefined;
  let pendingHelp: { name: string; help: string } | undefined;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, n) => {
    const where = `line ${n + 1} (${JSON.stringify(line)})`;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      const [, kind, name = '', rest = ''] = meta;
      if (!NAME.test(name)) throw new Error(`${where}: bad metric name`);
      if (kind === 'HELP') {
        if (families.has(name) || pendingHelp) throw new Error(`${where}: HELP out of place`);
        pendingHelp = { name, help: rest };
        return;
      }
      if (!TYPES.has(rest)) throw new Error(`${where}: unknown type`);
      if (pendingHelp?.name !== name) throw new Error(`${where}: TYPE without its HELP`);
      if (families.has(name)) throw new Error(`${where}: family ${name} repeated`);
      if (current && current.name >= name) throw new Error(`${where}: families not in name order`);
      if (current && current.samples.length === 0) throw new Error(`${where}: family ${current.name} has no samples`);
      current = { name, help: pendingHelp.help, type: rest, samples: [] };
      families.set(name, current);
      pendingHelp = undefined;
      return;
    }
    if (line.startsWith('#') || line === '') throw new Error(`${where}: unexpected line`);
    if (!current || pendingHelp) throw new Error(`${where}: a sample outside a family`);
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`${where}: not a sample`);
    const [, name = '', labels, value = ''] = m;
    const suffixes = current.type === 'histogram' ? ['_bucket', '_sum', '_count'] : current.type === 'summary' ? ['', '_sum', '_count'] : [''];
    if (!suffixes.some((s) => name === current!.name + s)) throw new Error(`${where}: not a sample of ${current.name}`);
    current.samples.push({ name, labels: parseLabels(labels ?? '', where), value: parseValue(value, where) });
  });
  if (pendingHelp) throw new Error(`HELP of ${pendingHelp.name} without its TYPE`);
  if (current && current.samples.length === 0) throw new Error(`family ${current.name} has no samples`);
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The value of the one sample of `name` whose labels are exactly `labels`; undefined when absent. */
export function sampleValue(families: Map<string, ParsedFamily>, family: string, labels: Record<string, string> = {}, name = family): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  return families.get(family)?.samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
}
