// What the metrics flags mean, as component-base's metrics.Options: --disabled-metrics (fully
// qualified names never exposed; beats showing hidden ones), --allow-metric-labels and
// --allow-metric-labels-manifest (per metric and label, the values that may appear; any other is
// exposed as `unexpected`; the flag, when given, replaces the manifest) and
// --show-hidden-metrics-for-version (only the previous minor version). Messages are upstream's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { GO_YAML } from '../api/go-yaml.js';

export interface MetricsSettings {
  readonly disabled: ReadonlySet<string>;
  /** Metric name → label name → the values allowed; others become `unexpected`. */
  readonly allowList: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  readonly showHidden: boolean;
}

export const DEFAULT_METRICS_SETTINGS: MetricsSettings = { disabled: new Set(), allowList: new Map(), showHidden: false };

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
const METRIC_NAME_RE = new RegExp(`^${METRIC_NAME}$`);
// Unanchored, as upstream's FindString: the key must be exactly the leftmost match.
const ALLOW_LIST_KEY_RE = new RegExp(`${METRIC_NAME},${LABEL_NAME}`);

/** `major.minor` of a version such as `1.32`; validateShowHiddenMetricsVersion's rule. */
export function showHiddenMetricsProblem(value: string, currentMinorVersion: string): string | undefined {
  if (value === '') return undefined;
  const [major, minor] = currentMinorVersion.split('.').map(Number) as [number, number];
  const valid = `${major}.${minor - 1}`;
  return value === valid ? undefined : `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}

export function disabledMetricsProblem(names: readonly string[]): string | undefined {
  const bad = names.find((n) => !METRIC_NAME_RE.test(n));
  // %q of Go's regexp String() and of the name.
  return bad === undefined ? undefined : `--disabled-metrics must be fully qualified metric names matching ${JSON.stringify(METRIC_NAME_RE.source)}, got ${JSON.stringify(bad)}`;
}

export function allowListProblem(mapping: Readonly<Record<string, string>>): string | undefined {
  const bad = Object.keys(mapping).some((k) => (ALLOW_LIST_KEY_RE.exec(k)?.[0] ?? '') !== k);
  return bad ? '--allow-metric-labels must have a list of kv pair with format `metricName,labelName=labelValue, labelValue,...`' : undefined;
}

/** The manifest's map, or an Error with upstream's validateAllowListMappingManifest text. */
export function readAllowListManifest(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    throw new Error(`failed to read allow list manifest: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, GO_YAML);
  } catch (e) {
    throw new Error(`failed to parse allow list manifest: ${(e as Error).message}`);
  }
  // yaml.Unmarshal into a map[string]string: an empty file is an empty map, anything but strings is refused.
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error('failed to parse allow list manifest: the manifest must be a map of "<MetricName>,<LabelName>" to "value,value,..."');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (typeof v !== 'string') throw new Error(`failed to parse allow list manifest: the value of ${JSON.stringify(k)} must be a string`);
    out[k] = v;
  }
  const problem = allowListProblem(out);
  if (problem) throw new Error(`invalid allow list mapping in manifest: ${problem}`);
  return out;
}

/** SetLabelAllowList: `metric,label` → the comma-separated values as a set. */
export function allowListFrom(mapping: Readonly<Record<string, string>>): Map<string, Map<string, Set<string>>> {
  const out = new Map<string, Map<string, Set<string>>>();
  for (const [key, values] of Object.entries(mapping)) {
    const [metric = '', label = ''] = key.split(',');
    let labels = out.get(metric);
    if (!labels) out.set(metric, (labels = new Map()));
    labels.set(label, new Set(values.split(',')));
  }
  return out;
}
