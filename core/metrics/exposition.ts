// The Prometheus text exposition format, version 0.0.4, as client_golang's expfmt writes it (what
// kube-controller-manager's /metrics answers): families sorted by name, each with its HELP and
// TYPE lines, samples sorted by their label values, labels sorted by name, a histogram's `le`
// after them, values in Go's shortest 'g' form. Families without samples are left out, as
// client_golang's Gather leaves them out.
import { formatGoFloat } from '../flags/help.js';

export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type LabelPairs = readonly (readonly [name: string, value: string])[];

export interface ScalarSample { readonly labels: LabelPairs; readonly value: number }
export interface HistogramSample {
  readonly labels: LabelPairs;
  /** Upper bounds (without +Inf) with the cumulative count of observations at or below each. */
  readonly buckets: readonly (readonly [upper: number, cumulative: number])[];
  readonly sum: number;
  readonly count: number;
}

/** A summary without objectives (client_golang's default): its sum and count only. */
export interface SummarySample { readonly labels: LabelPairs; readonly sum: number; readonly count: number }

export type ExposedFamily =
  | { readonly name: string; readonly help: string; readonly type: 'counter' | 'gauge'; readonly samples: readonly ScalarSample[] }
  | { readonly name: string; readonly help: string; readonly type: 'histogram'; readonly samples: readonly HistogramSample[] }
  | { readonly name: string; readonly help: string; readonly type: 'summary'; readonly samples: readonly SummarySample[] };

/** expfmt's writeFloat: 1, 0 and -1 spelt out, the rest as strconv's 'g' with the shortest precision. */
export const formatValue = (v: number): string => (Object.is(v, -0) ? '0' : formatGoFloat(v));

/** A HELP text: backslash and newline escaped (quotes stay). */
export const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** A label value: backslash, double quote and newline escaped. */
export const escapeLabelValue = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const byName = (a: readonly [string, string], b: readonly [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Each sample's labels sorted by name, the samples in client_golang's order. */
function sortSamples<T extends { readonly labels: LabelPairs }>(samples: readonly T[]): T[] {
  return samples.map((s) => ({ ...s, labels: [...s.labels].sort(byName) })).sort((a, b) => compareSamples(a.labels, b.labels));
}

/** client_golang's metricSorter: label values compared in label-name order, the first difference decides. */
function compareSamples(a: LabelPairs, b: LabelPairs): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]![1];
    const y = b[i]![1];
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function labelText(labels: LabelPairs, extra?: readonly [string, string]): string {
  const all = extra ? [...labels, extra] : labels;
  if (all.length === 0) return '';
  return `{${all.map(([n, v]) => `${n}="${escapeLabelValue(v)}"`).join(',')}}`;
}

export function exposeText(families: readonly ExposedFamily[]): string {
  const out: string[] = [];
  const present = families.filter((f) => f.samples.length > 0).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of present) {
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    if (f.type === 'histogram') {
      for (const s of sortSamples(f.samples)) {
        for (const [upper, cumulative] of s.buckets) out.push(`${f.name}_bucket${labelText(s.labels, ['le', formatValue(upper)])} ${formatValue(cumulative)}`);
        out.push(`${f.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${formatValue(s.count)}`);
        out.push(`${f.name}_sum${labelText(s.labels)} ${formatValue(s.sum)}`);
        out.push(`${f.name}_count${labelText(s.labels)} ${formatValue(s.count)}`);
      }
    } else if (f.type === 'summary') {
      for (const s of sortSamples(f.samples)) {
        out.push(`${f.name}_sum${labelText(s.labels)} ${formatValue(s.sum)}`);
        out.push(`${f.name}_count${labelText(s.labels)} ${formatValue(s.count)}`);
      }
    } else {
      for (const s of sortSamples(f.samples)) out.push(`${f.name}${labelText(s.labels)} ${formatValue(s.value)}`);
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
