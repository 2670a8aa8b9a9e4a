// AdmissionControlPlugin: --enable-admission-plugins, --disable-admission-plugins, the deprecated
// --admission-control and --admission-control-config-file. Decides, before any admission plugin
// configures, which plugins run (core/admission/plugins.ts) and hands each its configuration.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { ADMISSION_ORDER, ADMISSION_PLUGIN_KIND, DEFAULT_ENABLED, setAdmissionEnablement } from '../../core/admission/plugins.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { loadJsonFile, loadYamlFile } from '../../core/config/file-loaders.js';
import { ConfigError } from '../../core/config/config-error.js';
import { osErrorText } from '../../core/go-os-error.js';

const PLUGIN_NAME = 'AdmissionControlPlugin';
const SECTION = 'Admission';
const FLAG = {
  enable: 'enable-admission-plugins',
  disable: 'disable-admission-plugins',
  legacy: 'admission-control',
  configFile: 'admission-control-config-file',
} as const;
const CONFIG_API_VERSIONS = ['apiserver.platform/v1', 'apiserver.platform/v1alpha1'];

/** The name's standing: implemented here, only in the spec's catalogue, or unknown. */
function check(flag: string, names: readonly string[], available: ReadonlySet<string>, allowCatalogueOnly: boolean): void {
  for (const n of names) {
    if (available.has(n)) continue;
    if (ADMISSION_ORDER.includes(n)) {
      if (allowCatalogueOnly) continue;
      throw new StartupError(`--${flag}: admission plugin "${n}" is not available in plat (available: ${[...available].sort().join(', ')})`, 2);
    }
    throw new StartupError(`--${flag}: ${flag} plugin "${n}" is unknown`, 2);
  }
}

/** AdmissionConfiguration: `plugins[]` of `{name, path | configuration}`; paths relative to the file. */
function readAdmissionConfig(given: string, available: ReadonlySet<string>): Map<string, unknown> {
  const file = path.resolve(given);
  const load = (f: string): unknown => {
    let text: string;
    try { text = readFileSync(f, 'utf8'); } catch (e) {
      // The file itself in kube-apiserver's words: ReadAdmissionConfiguration's text inside the
      // admission options' and CreateConfig's wrappers. A plugin's own `path` file is plat's.
      if (f !== file) throw new StartupError(`--${FLAG.configFile}: cannot read ${f}: ${osErrorText('open', f, e)}`);
      throw new StartupError(`failed to apply admission: failed to read plugin config: unable to read admission control configuration from ${JSON.stringify(given)} [${osErrorText('open', given, e)}]`);
    }
    try { return f.endsWith('.json') ? loadJsonFile(f, text) : loadYamlFile(f, text, GO_YAML); } catch (e) {
      throw new StartupError(`--${FLAG.configFile}: ${e instanceof ConfigError ? e.message : (e as Error).message}`);
    }
  };
  const doc = load(file) as Record<string, unknown> | null;
  const fail = (field: string, problem: string) => new StartupError(`--${FLAG.configFile}: ${file}: ${field}: ${problem}`);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw fail('(root)', 'must be an AdmissionConfiguration object');
  if (doc['kind'] !== 'AdmissionConfiguration') throw fail('kind', `Unsupported value: ${JSON.stringify(doc['kind'])}: supported values: "AdmissionConfiguration"`);
  if (!CONFIG_API_VERSIONS.includes(String(doc['apiVersion']))) throw fail('apiVersion', `Unsupported value: ${JSON.stringify(doc['apiVersion'])}: supported values: ${CONFIG_API_VERSIONS.map((v) => `"${v}"`).join(', ')}`);
  const plugins = doc['plugins'] ?? [];
  if (!Array.isArray(plugins)) throw fail('plugins', 'must be a list');
  const out = new Map<string, unknown>();
  plugins.forEach((p: unknown, i) => {
    const at = `plugins[${i}]`;
    if (typeof p !== 'object' || p === null) throw fail(at, 'must be an object');
    const { name, path: rel, configuration } = p as Record<string, unknown>;
    if (typeof name !== 'string' || !name) throw fail(`${at}.name`, 'Required value');
    if (!available.has(name) && !ADMISSION_ORDER.includes(name)) throw fail(`${at}.name`, `admission plugin "${name}" is unknown`);
    if (out.has(name)) throw fail(`${at}.name`, `Duplicate value: "${name}"`);
    if (rel !== undefined && configuration !== undefined) throw fail(at, 'path and configuration are mutually exclusive');
    if (rel !== undefined && typeof rel !== 'string') throw fail(`${at}.path`, 'must be a string');
    out.set(name, typeof rel === 'string' ? load(path.resolve(path.dirname(file), rel)) : configuration);
  });
  return out;
}

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
      const legacy = cfg.flags.get<string[]>(FLAG.legacy);
      const enable = cfg.flags.get<string[]>(FLAG.enable);
      const disable = cfg.flags.get<string[]>(FLAG.disable);
      let enabled: Set<string>;
      if (cfg.flags.isSet(FLAG.legacy)) {
        if (cfg.flags.isSet(FLAG.enable) || cfg.flags.isSet(FLAG.disable)) {
          throw new StartupError('admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive', 2);
        }
        check(FLAG.legacy, legacy, available, false);
        enabled = new Set(legacy);
      } else {
        check(FLAG.enable, enable, available, false);
        // Disabling a catalogue plugin plat does not have is harmless: ported flag sets keep working.
        check(FLAG.disable, disable, available, true);
        const both = enable.filter((n) => disable.includes(n));
        if (both.length) throw new StartupError(`${JSON.stringify(both)} in enable-admission-plugins and disable-admission-plugins overlapped`, 2);
        enabled = new Set([...DEFAULT_ENABLED.filter((n) => available.has(n) && !disable.includes(n)), ...enable]);
      }
      const file = cfg.flags.get<string>(FLAG.configFile);
      const config = file ? readAdmissionConfig(file, available) : new Map<string, unknown>();
      setAdmissionEnablement(host, enabled, config);
      const ordered = [...enabled].sort((a, b) => ADMISSION_ORDER.indexOf(a) - ADMISSION_ORDER.indexOf(b));
      host.logger.child(PLUGIN_NAME).info('admission plugins enabled', { plugins: ordered });
    });
  },
};
