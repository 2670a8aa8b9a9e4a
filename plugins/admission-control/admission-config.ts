// --admission-control-config-file read as upstream's admission.ReadAdmissionConfiguration reads it:
// the file is decoded and nothing in `plugins` is checked, since upstream only asks ConfigFor() the
// plugins that are enabled. Entries naming no enabled plugin (unknown, duplicated, both `path` and
// `configuration`, a `path` that does not exist) are therefore never looked at.
import { missingKindText, missingVersionText } from '../../core/api/scheme-errors.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from '../../core/plugin.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { loadJsonFile, loadYamlFile } from '../../core/config/file-loaders.js';
import { ConfigError } from '../../core/config/config-error.js';
import { osErrorText } from '../../core/go-os-error.js';

const FLAG = 'admission-control-config-file';
const API_VERSIONS = ['apiserver.platform/v1', 'apiserver.platform/v1alpha1'];
/** Upstream's wrappers: CreateConfig's around Admission.ApplyTo's around ReadAdmissionConfiguration's. */
const WRAP = 'failed to apply admission: failed to read plugin config: ';
/**
 * A file of the unversioned configuration two plugins once read is not refused for lacking a type:
 * upstream hands it to those plugins (which plat does not have), so here it configures nothing.
 */
const LEGACY_KEYS = ['imagePolicy', 'podNodeSelectorPluginConfig'];

interface Entry { readonly name: unknown; readonly path?: unknown; readonly configuration?: unknown }

function decode(file: string, text: string): unknown {
  try {
    return file.endsWith('.json') ? loadJsonFile(file, text) : loadYamlFile(file, text, GO_YAML);
  } catch (e) {
    throw new StartupError(`--${FLAG}: ${e instanceof ConfigError ? e.message : (e as Error).message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The configuration of each plugin in `enabled` that the file configures, `configuration` before
 * `path` (a relative `path` is relative to the file), the first entry of a name winning.
 */
export function readAdmissionConfig(given: string, enabled: ReadonlySet<string>): Map<string, unknown> {
  const file = path.resolve(given);
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    throw new StartupError(`${WRAP}unable to read admission control configuration from ${JSON.stringify(given)} [${osErrorText('open', given, e)}]`);
  }
  const doc = decode(file, text) ?? {};
  const fail = (field: string, problem: string) => new StartupError(`--${FLAG}: ${file}: ${field}: ${problem}`);
  if (!isObject(doc)) throw fail('(root)', 'must be an AdmissionConfiguration object');
  const kind = doc['kind'];
  const apiVersion = doc['apiVersion'];
  const untyped = kind === undefined || kind === null || kind === '' || apiVersion === undefined || apiVersion === null || apiVersion === '';
  if (untyped && LEGACY_KEYS.some((k) => k in doc)) return new Map();
  // The serializer's missing-kind and missing-version errors quote the file as it was read.
  if (kind === undefined || kind === null || kind === '') throw new StartupError(`${WRAP}${missingKindText(text)}`);
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') throw new StartupError(`${WRAP}${missingVersionText(text)}`);
  if (kind !== 'AdmissionConfiguration') throw fail('kind', `Unsupported value: ${JSON.stringify(kind)}: supported values: "AdmissionConfiguration"`);
  if (!API_VERSIONS.includes(String(apiVersion))) throw fail('apiVersion', `Unsupported value: ${JSON.stringify(apiVersion)}: supported values: ${API_VERSIONS.map((v) => `"${v}"`).join(', ')}`);
  const plugins = doc['plugins'] ?? [];
  if (!Array.isArray(plugins)) throw fail('plugins', 'must be a list');
  plugins.forEach((p: unknown, i) => { if (!isObject(p)) throw fail(`plugins[${i}]`, 'must be an object'); });
  const out = new Map<string, unknown>();
  for (const name of enabled) {
    const entry = (plugins as Entry[]).find((p) => p.name === name);
    if (!entry) continue;
    if (entry.configuration !== undefined && entry.configuration !== null) out.set(name, entry.configuration);
    else if (typeof entry.path === 'string' && entry.path !== '') out.set(name, readPluginFile(path.resolve(path.dirname(file), entry.path)));
  }
  return out;
}

function readPluginFile(f: string): unknown {
  let text: string;
  try { text = readFileSync(f, 'utf8'); } catch (e) {
    throw new StartupError(`--${FLAG}: cannot read ${f}: ${osErrorText('open', f, e)}`);
  }
  return decode(f, text);
}
