// The four metrics flags of a component that serves /metrics (spec 02's "As in document 1"), and
// their values checked and turned into MetricsSettings at configure time. A problem names its
// flag (and the config file field that set it): exit 2 from the command line, 1 from a file.
import type { FlagSet, FlagSpec } from '../flags/types.js';
import { located, locatedError } from '../located-problems.js';
import { allowListFrom, allowListProblem, readAllowListManifest, showHiddenMetricsProblem, type MetricsSettings } from './settings.js';

export const METRICS_FLAGS = {
  allowLabels: 'allow-metric-labels',
  allowLabelsManifest: 'allow-metric-labels-manifest',
  disabled: 'disabled-metrics',
  showHidden: 'show-hidden-metrics-for-version',
} as const;

export function metricsFlags(section: string): FlagSpec[] {
  return [
    { name: METRICS_FLAGS.allowLabels, type: 'stringToString', section, help: 'Allow-list keyed `<MetricName>,<LabelName>` with comma-separated allowed values.' },
    { name: METRICS_FLAGS.allowLabelsManifest, type: 'string', section, help: 'File with the same format; the flag overrides it.' },
    { name: METRICS_FLAGS.disabled, type: 'strings', section, help: 'Fully qualified metrics to disable; beats showing hidden metrics.' },
    { name: METRICS_FLAGS.showHidden, type: 'string', section, help: 'Previous minor version `<major>.<minor>` whose hidden metrics are shown.' },
  ];
}

/**
 * metrics.Options Validate then Apply, as 1.32's: the version and the flag's keys are checked,
 * every problem at once, each located; the manifest is read only when the flag does not replace
 * it, and what is wrong with it is logged (`logError`). `currentMinorVersion`: `1.32`.
 */
export function metricsSettingsFromFlags(flags: FlagSet, currentMinorVersion: string, logError: (message: string) => void): MetricsSettings {
  const F = METRICS_FLAGS;
  const mapping = flags.get<Record<string, string>>(F.allowLabels);
  const manifestFile = flags.get<string>(F.allowLabelsManifest);
  const problem = (p: string | undefined) => (p === undefined ? [] : [p]);
  const error = locatedError([
    located(flags, problem(showHiddenMetricsProblem(flags.get<string>(F.showHidden), currentMinorVersion)), [F.showHidden]),
    located(flags, problem(allowListProblem(mapping)), [F.allowLabels]),
  ]);
  if (error) throw error;
  let manifest: Record<string, string> | undefined;
  if (!flags.isSet(F.allowLabels) && manifestFile !== '') {
    try {
      manifest = readAllowListManifest(manifestFile, logError);
    } catch (e) {
      throw locatedError([located(flags, [`--${F.allowLabelsManifest}=${manifestFile}: ${(e as Error).message}`], [F.allowLabelsManifest])])!;
    }
  }
  const disabled = flags.get<string[]>(F.disabled);
  return {
    disabled: new Set(disabled), disabledCount: disabled.length,
    allowList: allowListFrom(flags.isSet(F.allowLabels) ? mapping : manifest ?? {}),
    showHidden: flags.get<string>(F.showHidden) !== '',
  };
}
