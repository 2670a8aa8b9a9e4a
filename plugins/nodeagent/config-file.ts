// Reading one NodeAgentConfiguration file (--config, or a drop-in of --config-dir) as upstream's
// fsLoader does: the file must be readable and non-empty, YAML or JSON, and carry apiVersion
// nodeagent.config.platform/v1beta1 and kind NodeAgentConfiguration. Relative paths in the main
// file (staticPodPath, tlsCertFile, tlsPrivateKeyFile, authentication.x509.clientCAFile,
// resolvConf, volumePluginDir, podLogsDir) are resolved against its directory; upstream does not
// resolve them in drop-ins, and neither does plat.
import { missingKindText, missingVersionText, notRegisteredText } from '../../core/api/scheme-errors.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { interpretError } from '../../core/api/go-decode-errors.js';
import { CONFIG_API_VERSION, CONFIG_KIND, pathFields } from '../../core/nodeagent/fields.js';
import { osErrorText } from '../../core/go-os-error.js';
import { DecodeError, decodeConfiguration, isObject, parseText, type Decoded, type JsonObject } from './decode.js';

/** A problem with one file; the message is upstream's inner error text. */
export class ConfigFileError extends Error {}

/** A problem the codec's Decode returned: the main file's loader prefixes `failed to decode: `, a drop-in's does not. */
export class ConfigDecodeError extends ConfigFileError {}

export { osErrorText } from '../../core/go-os-error.js';

/**
 * The scheme name in upstream's "no kind is registered" errors: runtime.NewScheme names a scheme
 * after its caller's source line, which for the kubelet's config scheme is this one.
 */
const SCHEME = 'pkg/kubelet/apis/config/scheme/scheme.go:33';

export interface ReadDocument {
  /** The document as written (for drop-in merging, where `null` removes a key). */
  readonly raw: JsonObject;
  readonly decoded: Decoded;
}

/** Reads `file` (absolute) as fsLoader does; throws ConfigFileError with upstream's texts. */
function readText(file: string, what: 'config' | 'drop-in config'): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigFileError(`failed to read ${what === 'config' ? '' : 'drop-in '}nodeagent config file "${file}", error: ${osErrorText('open', file, e)}`);
  }
  if (text.length === 0) throw new ConfigFileError(`nodeagent config file "${file}" was empty`);
  return text;
}

/**
 * Reads and decodes `file` (absolute). The main file is decoded into the typed configuration: its
 * kind and apiVersion must be there and registered. A drop-in is decoded into an Unstructured,
 * which needs a kind only; its strict errors (repeated keys) are fatal, as there is no lenient retry.
 */
export function readDocument(file: string, what: 'config' | 'drop-in config'): ReadDocument {
  const text = readText(file, what);
  let parsed;
  try {
    parsed = parseText(text);
  } catch (e) {
    if (e instanceof DecodeError) throw new ConfigDecodeError(`yaml: ${e.message}`);
    throw e;
  }
  const problem = interpretError(parsed.value);
  if (problem) throw new ConfigDecodeError(`couldn't get version/kind; json parse error: ${problem}`);
  const raw = isObject(parsed.value) ? parsed.value : {};
  const { apiVersion, kind } = raw;
  // Go's %s of the original bytes.
  if (kind === undefined || kind === null || kind === '') throw new ConfigDecodeError(missingKindText(text));
  if (what === 'config') {
    if (apiVersion === undefined || apiVersion === null || apiVersion === '') throw new ConfigDecodeError(missingVersionText(text));
    if (apiVersion !== CONFIG_API_VERSION || kind !== CONFIG_KIND) {
      throw new ConfigDecodeError(notRegisteredText(String(kind), String(apiVersion), SCHEME));
    }
  }
  const decoded = decodeConfiguration(parsed.value, parsed);
  return { raw, decoded };
}

/** upstream's GroupVersionKind.String(): `group/version, Kind=kind`. */
export function gvkText(apiVersion: unknown, kind: unknown): string {
  return `${String(apiVersion ?? '')}, Kind=${String(kind ?? '')}`;
}

/** resolveRelativePaths over KubeletConfigurationPathRefs: non-empty relative paths joined to `root`. */
export function resolveRelativePaths(o: JsonObject, root: string): void {
  for (const field of pathFields()) {
    const parts = field.split('.');
    let holder: JsonObject | undefined = o;
    for (const p of parts.slice(0, -1)) holder = isObject(holder?.[p]) ? (holder![p] as JsonObject) : undefined;
    const leaf = parts[parts.length - 1]!;
    const v = holder?.[leaf];
    if (holder && typeof v === 'string' && v.length > 0 && !path.isAbsolute(v)) holder[leaf] = path.join(root, v);
  }
}
