// AdmissionControlPlugin: --enable-admission-plugins, --disable-admission-plugins, the deprecated
// --admission-control and --admission-control-config-file. Decides, before any admission plugin
// configures, which plugins run (core/admission/plugins.ts) and hands each its configuration.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { ADMISSION_ORDER, ADMISSION_PLUGIN_KIND, DEFAULT_ENABLED, setAdmissionEnablement } from '../../core/admission/plugins.js';
import { located, locatedError } from '../../core/located-problems.js';
import { readAdmissionConfig } from './admission-config.js';

const PLUGIN_NAME = 'AdmissionControlPlugin';
const SECTION = 'Admission';
const FLAG = {
  enable: 'enable-admission-plugins',
  disable: 'disable-admission-plugins',
  legacy: 'admission-control',
  configFile: 'admission-control-config-file',
} as const;

/**
 * Upstream's "plugin is unknown" for each name no plugin registered. A name of the spec's catalogue
 * that plat does not have is plat's own refusal, unless `allowCatalogueOnly`.
 */
function nameProblems(flag: string, names: readonly string[], available: ReadonlySet<string>, allowCatalogueOnly: boolean): string[] {
  const problems: string[] = [];
  for (const n of names) {
    if (available.has(n)) continue;
    if (ADMISSION_ORDER.includes(n)) {
      if (!allowCatalogueOnly) problems.push(`--${flag}: admission plugin "${n}" is not available in plat (available: ${[...available].sort().join(', ')})`);
    } else {
      problems.push(`${flag} plugin "${n}" is unknown`);
    }
  }
  return problems;
}

/** Go's %v of a sorted []string: `[A B]`. */
const goList = (names: readonly string[]): string => `[${[...new Set(names)].sort().join(' ')}]`;

export const AdmissionControlPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      flags.define({
        name: FLAG.legacy, type: 'strings', section: SECTION, owner: PLUGIN_NAME,
        deprecated: 'use --enable-admission-plugins or --disable-admission-plugins instead; it will be removed in a future version',
        help: 'Plugin list; deprecated in favour of the enable and disable options.',
      });
      flags.define({ name: FLAG.configFile, type: 'string', section: SECTION, owner: PLUGIN_NAME, help: 'File with admission control configuration.' });
      flags.define({ name: FLAG.enable, type: 'strings', section: SECTION, owner: PLUGIN_NAME, help: 'Plugins enabled in addition to the default-enabled set. Order irrelevant.' });
      flags.define({ name: FLAG.disable, type: 'strings', section: SECTION, owner: PLUGIN_NAME, help: 'Plugins disabled although in the default-enabled set. Order irrelevant.' });
    });

    // Before the admission plugins' own configure taps (stage 0) ask isAdmissionPluginEnabled().
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: -100 }, (cfg) => {
      const available = new Set(host.capabilities.names(ADMISSION_PLUGIN_KIND));
      const { flags } = cfg;
      const legacy = flags.get<string[]>(FLAG.legacy);
      const enable = flags.get<string[]>(FLAG.enable);
      const disable = flags.get<string[]>(FLAG.disable);
      const legacySet = flags.isSet(FLAG.legacy);
      const overlap = enable.filter((n) => disable.includes(n));
      // kube-apiserver's AdmissionOptions.Validate, then the generic one's: every problem, in this
      // order, in one aggregate.
      const problem = locatedError([
        located(flags, legacySet && (flags.isSet(FLAG.enable) || flags.isSet(FLAG.disable))
          ? ['admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive'] : [], [FLAG.legacy, FLAG.enable, FLAG.disable]),
        located(flags, nameProblems(FLAG.legacy, legacy, available, false), [FLAG.legacy]),
        located(flags, nameProblems(FLAG.enable, enable, available, false), [FLAG.enable]),
        // Disabling a catalogue plugin plat does not have is harmless: ported flag sets keep working.
        located(flags, nameProblems(FLAG.disable, disable, available, true), [FLAG.disable]),
        located(flags, overlap.length ? [`${goList(overlap)} in enable-admission-plugins and disable-admission-plugins overlapped`] : [], [FLAG.enable, FLAG.disable]),
      ]);
      if (problem) throw problem;
      const enabled = legacySet ? new Set(legacy) : new Set([...DEFAULT_ENABLED.filter((n) => available.has(n) && !disable.includes(n)), ...enable]);
      const file = flags.get<string>(FLAG.configFile);
      const config = file ? readAdmissionConfig(file, enabled) : new Map<string, unknown>();
      setAdmissionEnablement(host, enabled, config);
      const ordered = [...enabled].sort((a, b) => ADMISSION_ORDER.indexOf(a) - ADMISSION_ORDER.indexOf(b));
      host.logger.child(PLUGIN_NAME).info('admission plugins enabled', { plugins: ordered });
    });
  },
};
