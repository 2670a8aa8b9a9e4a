// Reading an --authentication-config file: YAML or JSON, apiVersion apiserver.platform/v1beta1,
// kind AuthenticationConfiguration, decoded strictly as the upstream codec does (an unknown
// field or a value of the wrong type is an error, with Go's wording). Semantic rules are
// validate.ts's; this file only turns text into the typed configuration.
import { missingKindText, missingVersionText } from '../../api/scheme-errors.js';
import { readFileSync } from 'node:fs';
import { yaml } from '../../yaml-module.js';
import { GO_YAML } from '../../api/go-yaml.js';
import { osErrorText } from '../../go-os-error.js';
import {
  AUTHENTICATION_CONFIGURATION_API_VERSION, AUTHENTICATION_CONFIGURATION_KIND,
  type AnonymousAuthConfig, type AuthenticationConfiguration, type JWTAuthenticator,
} from './types.js';
import { yamlErrorText } from '../../config/yaml-error-text.js';

export class AuthenticationConfigError extends Error {
  override readonly name = 'AuthenticationConfigError';
}

type Shape =
  | { readonly t: 'string' }
  | { readonly t: 'bool' }
  | { readonly t: 'list'; readonly of: Shape; readonly go: string }
  | { readonly t: 'object'; readonly go: string; readonly fields: Readonly<Record<string, Shape>> };

const str: Shape = { t: 'string' };
const bool: Shape = { t: 'bool' };
const list = (of: Shape, go: string): Shape => ({ t: 'list', of, go });
const obj = (go: string, fields: Record<string, Shape>): Shape => ({ t: 'object', go, fields });

const prefixedClaimOrExpression = obj('PrefixedClaimOrExpression', { claim: str, prefix: str, expression: str });
const JWT = obj('JWTAuthenticator', {
  issuer: obj('Issuer', {
    url: str, discoveryURL: str, certificateAuthority: str, audiences: list(str, '[]string'),
    audienceMatchPolicy: str, egressSelectorType: str,
  }),
  claimValidationRules: list(obj('ClaimValidationRule', { claim: str, requiredValue: str, expression: str, message: str }), '[]v1beta1.ClaimValidationRule'),
  claimMappings: obj('ClaimMappings', {
    username: prefixedClaimOrExpression,
    groups: prefixedClaimOrExpression,
    uid: obj('ClaimOrExpression', { claim: str, expression: str }),
    extra: list(obj('ExtraMapping', { key: str, valueExpression: str }), '[]v1beta1.ExtraMapping'),
  }),
  userValidationRules: list(obj('UserValidationRule', { expression: str, message: str }), '[]v1beta1.UserValidationRule'),
});
const ROOT = obj('AuthenticationConfiguration', {
  apiVersion: str,
  kind: str,
  jwt: list(JWT, '[]v1beta1.JWTAuthenticator'),
  anonymous: obj('AnonymousAuthConfig', {
    enabled: bool,
    conditions: list(obj('AnonymousAuthCondition', { path: str }), '[]v1beta1.AnonymousAuthCondition'),
  }),
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonKind(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

/**
 * Checks `v` against `shape` as encoding/json would decode it: null leaves the zero value, a wrong
 * type fails at once (json.Unmarshal stops), unknown fields are collected (strict decoding).
 */
function check(v: unknown, shape: Shape, path: string, owner: string, unknown: string[]): void {
  if (v === null || v === undefined) return;
  const mismatch = (goType: string) =>
    new AuthenticationConfigError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${owner}.${path.replace(/\[\d+\]/g, '')} of type ${goType}`);
  switch (shape.t) {
    case 'string': if (typeof v !== 'string') throw mismatch('string'); return;
    case 'bool': if (typeof v !== 'boolean') throw mismatch('bool'); return;
    case 'list':
      if (!Array.isArray(v)) throw mismatch(shape.go);
      v.forEach((item, i) => check(item, shape.of, `${path}[${i}]`, owner, unknown));
      return;
    case 'object':
      if (!isObject(v)) throw mismatch(`v1beta1.${shape.go}`);
      for (const [k, item] of Object.entries(v)) {
        const field = shape.fields[k];
        const child = path ? `${path}.${k}` : k;
        if (field === undefined) unknown.push(`unknown field ${JSON.stringify(child)}`);
        else check(item, field, child, shape.go, unknown);
      }
  }
}

const s = (v: unknown): string => (typeof v === 'string' ? v : '');
const o = (v: unknown): Record<string, Json> => (isObject(v) ? v : {});
const a = (v: unknown): Json[] => (Array.isArray(v) ? v : []);

function toJwt(v: unknown): JWTAuthenticator {
  const j = o(v);
  const issuer = o(j['issuer']);
  const m = o(j['claimMappings']);
  const pce = (x: unknown) => {
    const p = o(x);
    return { claim: s(p['claim']), expression: s(p['expression']), ...(typeof p['prefix'] === 'string' ? { prefix: p['prefix'] } : {}) };
  };
  return {
    issuer: {
      url: s(issuer['url']), discoveryURL: s(issuer['discoveryURL']), certificateAuthority: s(issuer['certificateAuthority']),
      audiences: a(issuer['audiences']).map(s), audienceMatchPolicy: s(issuer['audienceMatchPolicy']),
      egressSelectorType: s(issuer['egressSelectorType']),
    },
    claimValidationRules: a(j['claimValidationRules']).map((r) => {
      const x = o(r);
      return { claim: s(x['claim']), requiredValue: s(x['requiredValue']), expression: s(x['expression']), message: s(x['message']) };
    }),
    claimMappings: {
      username: pce(m['username']),
      groups: pce(m['groups']),
      uid: { claim: s(o(m['uid'])['claim']), expression: s(o(m['uid'])['expression']) },
      extra: a(m['extra']).map((e) => ({ key: s(o(e)['key']), valueExpression: s(o(e)['valueExpression']) })),
    },
    userValidationRules: a(j['userValidationRules']).map((r) => ({ expression: s(o(r)['expression']), message: s(o(r)['message']) })),
  };
}

/** Decodes the text of a configuration file. Throws AuthenticationConfigError. */
export function parseAuthenticationConfiguration(text: string): AuthenticationConfiguration {
  if (text.trim() === '') throw new AuthenticationConfigError('empty config data');
  let doc: unknown;
  try {
    // Upstream reads it through sigs.k8s.io/yaml: YAML 1.1 scalars (`enabled: yes` is true).
    doc = yaml().parse(text, GO_YAML);
  } catch (err) {
    throw new AuthenticationConfigError(`error converting YAML to JSON: ${yamlErrorText(err)}`);
  }
  if (!isObject(doc)) throw new AuthenticationConfigError(`couldn't get version/kind; json parse error: expected an object, got ${doc === null ? 'null' : jsonKind(doc)}`);
  const apiVersion = doc['apiVersion'];
  const kind = doc['kind'];
  if (typeof kind !== 'string' || kind === '') throw new AuthenticationConfigError(missingKindText(JSON.stringify(doc)));
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new AuthenticationConfigError(missingVersionText(JSON.stringify(doc)));
  if (apiVersion !== AUTHENTICATION_CONFIGURATION_API_VERSION || kind !== AUTHENTICATION_CONFIGURATION_KIND) {
    throw new AuthenticationConfigError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} (expected ${AUTHENTICATION_CONFIGURATION_API_VERSION}, kind ${AUTHENTICATION_CONFIGURATION_KIND})`);
  }
  const unknown: string[] = [];
  check(doc, ROOT, '', 'AuthenticationConfiguration', unknown);
  if (unknown.length) throw new AuthenticationConfigError(`strict decoding error: ${unknown.join(', ')}`);

  const anon = doc['anonymous'];
  const anonymous: AnonymousAuthConfig | undefined = isObject(anon)
    ? { enabled: anon['enabled'] === true, conditions: a(anon['conditions']).map((c) => ({ path: s(o(c)['path']) })) }
    : undefined;
  return {
    jwt: a(doc['jwt']).map(toJwt),
    hasJwt: 'jwt' in doc && doc['jwt'] !== null,
    ...(anonymous ? { anonymous } : {}),
  };
}

/** Reads and decodes `file`. Throws AuthenticationConfigError naming nothing but the problem. */
export function loadAuthenticationConfiguration(file: string): AuthenticationConfiguration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AuthenticationConfigError(osErrorText('open', file, err));
  }
  return parseAuthenticationConfiguration(text);
}

/** The start-up message for a file that cannot be loaded, as upstream words it. */
export const loadFailure = (file: string, err: unknown): string =>
  `failed to load authentication configuration from file ${JSON.stringify(file)}: ${err instanceof Error ? err.message : String(err)}`;
