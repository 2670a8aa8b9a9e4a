// Reading one NodeAgentConfiguration file (--config, or a drop-in of --config-dir) as upstream's
// fsLoader does: the file must be readable and non-empty, YAML or JSON, and carry apiVersion
// nodeagent.config.platform/v1beta1 and kind NodeAgentConfiguration. Relative paths in the main
// file (staticPodPath, tlsCertFile, tlsPrivateKeyFile, authentication.x509.clientCAFile,
// resolvConf, volumePluginDir, podLogsDir) are resolved against its directory; upstream does not
// resolve them in drop-ins, and neither does plat.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_API_VERSION, CONFIG_KIND, pathFields } from '../../core/nodeagent/fields.js';
import { osErrorText } from '../../core/go-os-error.js';
import { DecodeError, decodeConfiguration, isObject, parseText, type Decoded, type Json, type JsonObject } from './decode.js';

/** A problem with one file; the message is upstream's inner error text. */
export class ConfigFileError extends Error {}

export { osErrorText } from '../../core/go-os-error.js';

export interface ReadDocument {
  /** The document as written (for drop-in merging, where `null` removes a key). */
  readonly raw: JsonObject;
  readonly decoded: Decoded;
  readonly apiVersion: unknown;
  readonly kind: unknown;
}

/** Reads and decodes `file` (absolute); throws ConfigFileError with upstream's texts. */
export function readDocument(file: string, what: 'config' | 'drop-in config'): ReadDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigFileError(`failed to read ${what === 'config' ? '' : 'drop-in '}nodeagent config file "${file}", error: ${osErrorText('open', file, e)}`);
  }
  if (text.length === 0) throw new ConfigFileError(`nodeagent config file "${file}" was empty`);
  let parsed: { value: Json; duplicates: string[] };
  try {
    parsed = parseText(text);
  } catch (e) {
    if (e instanceof DecodeError) throw new ConfigFileError(`failed to decode: yaml: ${e.message}`);
    throw e;
  }
  const raw = isObject(parsed.value) ? parsed.value : {};
  return { raw, decoded: decodeConfiguration(parsed.value, parsed.duplicates), apiVersion: raw['apiVersion'], kind: raw['kind'] };
}

/** The type check upstream's UniversalDecoder does on the main file. */
export function checkTypeMeta(doc: ReadDocument): void {
  const { apiVersion, kind } = doc;
  if (kind === undefined || kind === '') throw new ConfigFileError(`failed to decode: Object 'Kind' is missing (expected kind ${CONFIG_KIND}, apiVersion ${CONFIG_API_VERSION})`);
  if (apiVersion === undefined || apiVersion === '') throw new ConfigFileError(`failed to decode: Object 'apiVersion' is missing (expected apiVersion ${CONFIG_API_VERSION})`);
  if (apiVersion !== CONFIG_API_VERSION || kind !== CONFIG_KIND) {
    throw new ConfigFileError(`failed to decode: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}` +
      ` (expected apiVersion ${CONFIG_API_VERSION}, kind ${CONFIG_KIND})`);
  }
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
