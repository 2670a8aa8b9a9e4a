// The ABAC policy file (--authorization-policy-file): one JSON policy per line, blank lines and
// `#` comments skipped, read as upstream's abac.NewFromFile reads it, into the internal Policy form:
//   {"apiVersion": "abac.authorization.platform/v1beta1", "kind": "Policy", "spec": {...}}
//     (upstream abac.authorization.kubernetes.io/v1beta1), where a user or group of "*" means
//     every authenticated caller (group system:authenticated);
//   {"user": ..., "group": ..., "readonly": ..., "resource": ..., "namespace": ...}, the unversioned
//     legacy form, converted as upstream's v0 conversion does (empty user and group: every
//     authenticated caller; empty namespace or resource: all; every API group; empty namespace
//     and resource together: every non-resource path too).
// Stricter than upstream, which drops unknown fields and reads any line it cannot place as a
// legacy policy (a typo in "apiVersion" could then grant everything): here an unknown field, a
// wrong type, or an apiVersion/kind other than the ones above is a start-up error naming the line.
import { interpretError } from '../../core/api/go-decode-errors.js';
import { goJsonSyntaxError } from '../../core/api/go-json-syntax.js';
import { AUTHENTICATED_GROUP } from '../../core/authn/user.js';

export const POLICY_API_VERSION = 'abac.authorization.platform/v1beta1';
const UPSTREAM_API_VERSION = 'abac.authorization.kubernetes.io/v1beta1';
export const POLICY_KIND = 'Policy';

/** The internal form every line is converted to (pkg/apis/abac PolicySpec). */
export interface Policy {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyFileError';
  }
}

const SPEC_FIELDS = ['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath'];
const LEGACY_FIELDS = ['user', 'group', 'readonly', 'resource', 'namespace'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Field values of `o`, checked against `fields`; throws a message (no position) on a bad one. */
function fields(o: Obj, allowed: readonly string[], where: string): { str: (k: string) => string; readonly: boolean } {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw new Error(`unknown field "${where}${k}"`);
  const str = (k: string): string => {
    const v = o[k];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new Error(`${where}${k} must be a string`);
    return v;
  };
  const ro = o['readonly'];
  if (ro !== undefined && ro !== null && typeof ro !== 'boolean') throw new Error(`${where}readonly must be true or false`);
  return { str, readonly: ro === true };
}

function v1beta1(line: Obj): Policy {
  const { apiVersion, kind, spec, ...rest } = line;
  const extra = Object.keys(rest);
  if (extra.length) throw new Error(`unknown field "${extra[0]}"`);
  if (apiVersion !== POLICY_API_VERSION) {
    const hint = apiVersion === UPSTREAM_API_VERSION ? ` (plat's is "${POLICY_API_VERSION}")` : '';
    throw new Error(`apiVersion ${JSON.stringify(apiVersion)} is not supported: use "${POLICY_API_VERSION}"${hint}`);
  }
  if (kind !== POLICY_KIND) throw new Error(`kind ${JSON.stringify(kind ?? null)} is not supported: use "${POLICY_KIND}"`);
  if (!isObj(spec)) throw new Error('spec must be an object');
  const f = fields(spec, SPEC_FIELDS, 'spec.');
  const p = {
    user: f.str('user'), group: f.str('group'), readonly: f.readonly, apiGroup: f.str('apiGroup'),
    resource: f.str('resource'), namespace: f.str('namespace'), nonResourcePath: f.str('nonResourcePath'),
  };
  // v1beta1 conversion: a "*" subject means every authenticated caller.
  return p.user === '*' || p.group === '*' ? { ...p, user: '', group: AUTHENTICATED_GROUP } : p;
}

function legacy(line: Obj): Policy {
  const f = fields(line, LEGACY_FIELDS, '');
  const user = f.str('user');
  const group = f.str('group');
  const namespace = f.str('namespace');
  const resource = f.str('resource');
  const everyone = (user === '' && group === '') || user === '*' || group === '*';
  return {
    user: everyone ? '' : user,
    group: everyone ? AUTHENTICATED_GROUP : group,
    readonly: f.readonly,
    apiGroup: '*',
    namespace: namespace === '' ? '*' : namespace,
    resource: resource === '' ? '*' : resource,
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
}

/**
 * One line as upstream's universal decoder first reads it: a line starting with `{` is JSON, and its
 * version/kind sniffing (SimpleMetaFactory.Interpret) words the syntax or type error.
 */
function decode(raw: string): unknown {
  const syntax = goJsonSyntaxError(Buffer.from(raw, 'utf8'));
  // Upstream would read any other line as YAML; plat reads JSON only.
  if (syntax !== undefined && !raw.trimStart().startsWith('{')) throw new Error(`not JSON: ${syntax}`);
  if (syntax !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${syntax}`);
  const parsed: unknown = JSON.parse(raw);
  const kind = interpretError(parsed);
  if (kind !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${kind}`);
  return parsed;
}

export interface ParsedPolicies {
  readonly policies: readonly Policy[];
  /** How many lines used the legacy unversioned form (upstream warns about them). */
  readonly legacyLines: number;
}

/** Parses the file's text; throws PolicyFileError: `error reading policy file F, line N: TEXT: PROBLEM`. */
export function parsePolicyFile(text: string, file: string): ParsedPolicies {
  const policies: Policy[] = [];
  let legacyLines = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    try {
      const parsed = decode(raw);
      if (!isObj(parsed)) throw new Error('a policy must be a JSON object');
      const versioned = parsed['apiVersion'] !== undefined || parsed['kind'] !== undefined;
      if (!versioned) legacyLines++;
      policies.push(versioned ? v1beta1(parsed) : legacy(parsed));
    } catch (err) {
      throw new PolicyFileError(`error reading policy file ${file}, line ${i + 1}: ${raw}: ${(err as Error).message}`);
    }
  });
  return { policies, legacyLines };
}
