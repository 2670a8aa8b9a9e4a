// `--runtime-config`: which built-in group versions and resources the API server serves, read as
// kube-apiserver 1.32 reads it, in its words: Complete's legacy-key conversion, then
// APIEnablementOptions.Validate (gathered with the other options' problems), then
// MergeAPIResourceConfigs (which refuses the values Validate lets through).
import { parseBool } from '../flags/parse-value.js';
import { goQuote } from '../go-quote.js';
import { ResourceConfig, type GroupVersion } from './resource-config.js';

export const RUNTIME_CONFIG_FLAG = 'runtime-config';

const GA = /^v\d+$/;
const BETA = /^v\d+beta\d+$/;
const ALPHA = /^v\d+alpha\d+$/;

/** The special keys, in the order upstream applies them whatever the flag's order. */
const MATCHERS: ReadonlyMap<string, (gv: GroupVersion) => boolean> = new Map([
  ['api/all', () => true],
  ['api/ga', (gv: GroupVersion) => GA.test(gv.version)],
  ['api/beta', (gv: GroupVersion) => BETA.test(gv.version)],
  ['api/alpha', (gv: GroupVersion) => ALPHA.test(gv.version)],
]);

/** The group versions a server could serve: those its resource plugins registered. */
export interface GroupVersionRegistry {
  groups(): readonly string[];
  versions(group: string): readonly string[];
}

/**
 * Complete's conversion: `v1`, `api/v1` and (as upstream, the whole group, not the resource)
 * `v1/<resource>` and `api/v1/<resource>` become the core group's `/v1`; `api/legacy` is dropped.
 */
export function completeRuntimeConfig(raw: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'api/legacy') continue;
    const legacy = key === 'v1' || key.startsWith('v1/') || key === 'api/v1' || key.startsWith('api/v1/');
    out.set(legacy ? '/v1' : key, value);
  }
  return out;
}

/** APIEnablementOptions.Validate's problem with the completed map, if any. */
export function runtimeConfigProblem(config: ReadonlyMap<string, string>, registry: GroupVersionRegistry): string | undefined {
  // Nothing would be served: upstream refuses to start such a server.
  if (config.get('api/all') === 'false' && config.size === 1) return 'invalid key with only api/all=false';
  const groups: string[] = [];
  for (const key of config.keys()) {
    if (MATCHERS.has(key)) continue;
    const tokens = key.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) return `runtime-config invalid key ${key}`;
    groups.push(tokens[0]!);
  }
  const known = new Set(registry.groups());
  const unknown = groups.filter((g) => !known.has(g));
  return unknown.length ? `unknown api groups ${unknown.join(',')}` : undefined;
}

const gvString = (gv: GroupVersion) => (gv.group ? `${gv.group}/${gv.version}` : gv.version);

/**
 * MergeAPIResourceConfigs over the default (every registered GA version on, beta and alpha off):
 * the `api/*` keys first, then the group versions, then single resources. Throws upstream's text.
 */
export function mergeRuntimeConfig(config: ReadonlyMap<string, string>, registry: GroupVersionRegistry): ResourceConfig {
  const registered = registry.groups().flatMap((group) => registry.versions(group).map((version) => ({ group, version })));
  const resourceConfig = new ResourceConfig(registered.map((gv) => [gv, GA.test(gv.version)] as const));
  for (const [key, matches] of MATCHERS) {
    const value = config.get(key);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
    resourceConfig.setMatchingVersions(matches, value === 'true');
  }
  const versions: Array<[GroupVersion, boolean]> = [];
  const resources: Array<[GroupVersion, string, boolean]> = [];
  for (const [key, value] of config) {
    if (MATCHERS.has(key)) continue;
    const tokens = key.split('/');
    if (tokens.length < 2 || tokens.length > 3) continue;
    const gv = { group: tokens[0]!, version: tokens[1]! };
    if (!registry.groups().includes(gv.group)) continue;
    if (!registry.versions(gv.group).includes(gv.version)) throw new Error(`group version ${gvString(gv)} that has not been registered`);
    const enabled = runtimeConfigValue(key, value);
    const resource = tokens[2];
    if (resource === undefined) versions.push([gv, enabled]);
    else if (resource.toLowerCase() !== resource) {
      throw new Error(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${goQuote(resource)}`);
    } else resources.push([gv, resource, enabled]);
  }
  for (const [gv, enabled] of versions) resourceConfig.setVersion(gv, enabled);
  for (const [gv, resource, enabled] of resources) resourceConfig.setResource(gv, resource, enabled);
  return resourceConfig;
}

/** A key without a value (`--runtime-config=certificates.platform/v1`) is true. */
function runtimeConfigValue(key: string, value: string): boolean {
  if (value === '') return true;
  try {
    return parseBool(value);
  } catch (e) {
    throw new Error(`invalid value of ${key}: ${value}, err: ${(e as Error).message}`);
  }
}
