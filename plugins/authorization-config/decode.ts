// Reading an AuthorizationConfiguration file (YAML or JSON) into its typed form, strictly as
// upstream's loader does (serializer.EnableStrict): an unknown or misspelt field, a value of the
// wrong type, a duration Go would not parse, or the wrong apiVersion/kind stops here, before
// validation. Then v1beta1's defaulting: authorizedTTL 5m0s, unauthorizedTTL 30s, and both cache
// switches true.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../core/config/config-error.js';
import { osErrorText } from '../../core/go-os-error.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { loadYamlFile } from '../../core/config/file-loaders.js';
import { parseDuration } from '../../core/flags/duration.js';

export const CONFIG_KIND = 'AuthorizationConfiguration';
/** apiserver.config.k8s.io, renamed; upstream serves the same fields in v1beta1 and v1. */
export const CONFIG_API_VERSIONS = ['apiserver.platform/v1', 'apiserver.platform/v1beta1'];
const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

export interface ConnectionInfoDoc {
  readonly type: string;
  /** undefined when absent (a Go nil pointer), '' when given empty. */
  readonly kubeConfigFile?: string;
}

export interface WebhookDoc {
  /** Durations in milliseconds; absent is 0 (Go's zero value), which defaulting or validation handles. */
  readonly authorizedTTL: number;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTL: number;
  readonly cacheUnauthorizedRequests: boolean;
  readonly timeout: number;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: ConnectionInfoDoc;
  readonly matchConditions: readonly { readonly expression: string }[];
}

export interface AuthorizerDoc {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookDoc;
}

export interface AuthorizationConfigurationDoc {
  readonly authorizers: readonly AuthorizerDoc[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Collects every decoding problem of the file before failing with all of them. */
class Reader {
  readonly problems: string[] = [];

  object(v: unknown, path: string, fields: readonly string[]): Obj | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      this.problems.push(`${path}: must be an object`);
      return undefined;
    }
    for (const k of Object.keys(v)) {
      if (!fields.includes(k)) this.problems.push(`strict decoding error: unknown field "${path ? `${path}.` : ''}${k}"`);
    }
    return v;
  }

  string(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') {
      this.problems.push(`${path}.${key}: must be a string, not ${JSON.stringify(v)}`);
      return '';
    }
    return v;
  }

  bool(o: Obj, key: string, path: string): boolean | undefined {
    const v = o[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.problems.push(`${path}.${key}: must be true or false, not ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  }

  duration(o: Obj, key: string, path: string): number {
    const v = o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'string') {
      this.problems.push(`${path}.${key}: must be a duration string such as "30s", not ${JSON.stringify(v)}`);
      return 0;
    }
    try {
      return parseDuration(v);
    } catch (err) {
      this.problems.push(`${path}.${key}: ${(err as Error).message}`);
      return 0;
    }
  }

  list(o: Obj, key: string, path: string): unknown[] {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.problems.push(`${path}.${key}: must be a list`);
      return [];
    }
    return v;
  }
}

const WEBHOOK_FIELDS = [
  'authorizedTTL', 'cacheAuthorizedRequests', 'unauthorizedTTL', 'cacheUnauthorizedRequests', 'timeout',
  'subjectAccessReviewVersion', 'matchConditionSubjectAccessReviewVersion', 'failurePolicy', 'connectionInfo', 'matchConditions',
];

function readWebhook(r: Reader, v: unknown, path: string): WebhookDoc | undefined {
  const w = r.object(v, path, WEBHOOK_FIELDS);
  if (w === undefined) return undefined;
  const ci = r.object(w['connectionInfo'], `${path}.connectionInfo`, ['type', 'kubeConfigFile']) ?? {};
  const kubeConfigFile = ci['kubeConfigFile'] === undefined || ci['kubeConfigFile'] === null ? undefined : r.string(ci, 'kubeConfigFile', `${path}.connectionInfo`);
  const matchConditions = r.list(w, 'matchConditions', path).map((m, i) => {
    const at = `${path}.matchConditions[${i}]`;
    const o = r.object(m, at, ['expression']) ?? {};
    return { expression: r.string(o, 'expression', at) };
  });
  const authorizedTTL = r.duration(w, 'authorizedTTL', path);
  const unauthorizedTTL = r.duration(w, 'unauthorizedTTL', path);
  return {
    authorizedTTL: authorizedTTL === 0 ? DEFAULT_AUTHORIZED_TTL_MS : authorizedTTL,
    cacheAuthorizedRequests: r.bool(w, 'cacheAuthorizedRequests', path) ?? true,
    unauthorizedTTL: unauthorizedTTL === 0 ? DEFAULT_UNAUTHORIZED_TTL_MS : unauthorizedTTL,
    cacheUnauthorizedRequests: r.bool(w, 'cacheUnauthorizedRequests', path) ?? true,
    timeout: r.duration(w, 'timeout', path),
    subjectAccessReviewVersion: r.string(w, 'subjectAccessReviewVersion', path),
    matchConditionSubjectAccessReviewVersion: r.string(w, 'matchConditionSubjectAccessReviewVersion', path),
    failurePolicy: r.string(w, 'failurePolicy', path),
    connectionInfo: { type: r.string(ci, 'type', `${path}.connectionInfo`), ...(kubeConfigFile !== undefined ? { kubeConfigFile } : {}) },
    matchConditions,
  };
}

/** Decodes the parsed document; throws a ConfigError listing every problem, one per line. */
export function decodeAuthorizationConfiguration(doc: unknown, file: string): AuthorizationConfigurationDoc {
  const r = new Reader();
  const top = r.object(doc, '', ['apiVersion', 'kind', 'authorizers']);
  if (top === undefined) throw new ConfigError(`${file}: not an ${CONFIG_KIND} (expected a mapping with apiVersion, kind and authorizers)`);
  const apiVersion = top['apiVersion'];
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') {
    r.problems.push(`apiVersion: Required value: ${CONFIG_API_VERSIONS.map((v) => `"${v}"`).join(' or ')}`);
  } else if (!CONFIG_API_VERSIONS.includes(String(apiVersion))) {
    const hint = typeof apiVersion === 'string' && apiVersion.startsWith('apiserver.config.k8s.io/')
      ? ` (plat's group is apiserver.platform: "apiserver.platform/${apiVersion.split('/')[1]}")` : '';
    r.problems.push(`apiVersion: Unsupported value: ${JSON.stringify(apiVersion)}: supported values: ${CONFIG_API_VERSIONS.map((v) => `"${v}"`).join(', ')}${hint}`);
  }
  if (top['kind'] !== CONFIG_KIND) {
    r.problems.push(top['kind'] === undefined || top['kind'] === null
      ? `kind: Required value: "${CONFIG_KIND}"`
      : `kind: Unsupported value: ${JSON.stringify(top['kind'])}: supported values: "${CONFIG_KIND}"`);
  }
  const authorizers = r.list(top, 'authorizers', '').map((a, i): AuthorizerDoc => {
    const path = `authorizers[${i}]`;
    const o = r.object(a, path, ['type', 'name', 'webhook']) ?? {};
    const webhook = readWebhook(r, o['webhook'], `${path}.webhook`);
    return { type: r.string(o, 'type', path), name: r.string(o, 'name', path), ...(webhook ? { webhook } : {}) };
  });
  if (r.problems.length) throw new ConfigError(r.problems.map((p) => `${file}: ${p.replace(/^\./, '')}`).join('\n'));
  return { authorizers };
}

/** A file that cannot be read: LoadAndValidateFile's os.ReadFile error, which Validate reports as it is. */
export class UnreadableConfigError extends Error {
  override readonly name = 'UnreadableConfigError';
}

/** Reads and decodes the file at `file` (an absolute path; `given`: as the flag named it, for Go's os error). */
export function readAuthorizationConfiguration(file: string, given = file): AuthorizationConfigurationDoc {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UnreadableConfigError(osErrorText('open', given, err));
  }
  // upstream reads an empty file as a configuration with no authorizers, which validation refuses.
  if (text.trim() === '') return { authorizers: [] };
  // Upstream reads it through sigs.k8s.io/yaml: YAML 1.1 scalars (`cacheAuthorizedRequests: no`).
  return decodeAuthorizationConfiguration(loadYamlFile(file, text, GO_YAML), file);
}
