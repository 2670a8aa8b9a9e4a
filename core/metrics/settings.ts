// What the metrics flags mean, as component-base's metrics.Options: --disabled-metrics (fully
// qualified names never exposed; beats showing hidden ones), --allow-metric-labels and
// --allow-metric-labels-manifest (per metric and label, the values that may appear; any other is
// exposed as `unexpected`; the flag, when given, replaces the manifest) and
// --show-hidden-metrics-for-version (only the previous minor version). Checks and messages are
// 1.32's: names to disable are taken as given, and a manifest that cannot be read or parsed is
// logged and left out, not a start-up error (SetLabelAllowListFromManifest).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { yaml } from '../yaml-module.js';
import { GO_YAML } from '../api/go-yaml.js';
import { osErrorText } from '../go-os-error.js';
import { goPathClean } from '../go-path-clean.js';

export interface MetricsSettings {
  readonly disabled: ReadonlySet<string>;
  /** disabled_metrics_total: SetDisabledMetric counts every name given, a repeated one again. */
  readonly disabledCount: number;
  /** Metric name → label name → the values allowed; others become `unexpected`. */
  readonly allowList: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  readonly showHidden: boolean;
}

export const DEFAULT_METRICS_SETTINGS: MetricsSettings = { disabled: new Set(), disabledCount: 0, allowList: new Map(), showHidden: false };

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
// Unanchored, as upstream's FindString: the key must be exactly the leftmost match.
const ALLOW_LIST_KEY_RE = new RegExp(`${METRIC_NAME},${LABEL_NAME}`);

/** `major.minor` of a version such as `1.32`; validateShowHiddenMetricsVersion's rule. */
export function showHiddenMetricsProblem(value: string, currentMinorVersion: string): string | undefined {
  if (value === '') return undefined;
  const [major, minor] = currentMinorVersion.split('.').map(Number) as [number, number];
  const valid = `${major}.${minor - 1}`;
  return value === valid ? undefined : `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}

export function allowListProblem(mapping: Readonly<Record<string, string>>): string | undefined {
  const bad = Object.keys(mapping).some((k) => (ALLOW_LIST_KEY_RE.exec(k)?.[0] ?? '') !== k);
  return bad ? '--allow-metric-labels must have a list of kv pair with format `metricName:labelName=labelValue, labelValue,...`' : undefined;
}

/**
 * The manifest's map, as SetLabelAllowListFromManifest reads it: a file that cannot be read, or is
 * not a map of strings, is logged (`Failed to read allow list manifest: ...`) and gives no allow
 * list. A key that is not `<metric>,<label>` is an Error: upstream's split then indexes past the
 * end and the process dies at start-up; plat says why instead.
 */
export function readAllowListManifest(file: string, logError: (message: string) => void): Record<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    // os.ReadFile(filepath.Clean(manifest)): Go's os error names the cleaned path.
    logError(`Failed to read allow list manifest: ${osErrorText('open', goPathClean(file), e)}`);
    return undefined;
  }
  let doc: unknown;
  try {
    doc = yaml().parse(text, GO_YAML);
  } catch (e) {
    logError(`Failed to parse allow list manifest: ${(e as Error).message}`);
    return undefined;
  }
  // yaml.Unmarshal into a map[string]string: an empty file is an empty map, anything but strings is refused.
  if (doc === null || doc === undefined) return {};
  const notStrings = typeof doc !== 'object' || Array.isArray(doc) || Object.values(doc).some((v) => typeof v !== 'string');
  if (notStrings) {
    logError('Failed to parse allow list manifest: the manifest must be a map of "<MetricName>,<LabelName>" to "value,value,..."');
    return undefined;
  }
  const out = doc as Record<string, string>;
  const bad = Object.keys(out).find((k) => !k.includes(','));
  if (bad !== undefined) throw new Error(`the key ${JSON.stringify(bad)} is not "<MetricName>,<LabelName>"`);
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
