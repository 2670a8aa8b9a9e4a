// ValidateSecret's `switch secret.Type` and the secret strategy's warningsForSecret, for upstream's
// well-known Secret types under plat's names (`kubernetes.io/` becomes `platform/`, as the bootstrap
// token type `bootstrap.platform/token`, which upstream does not check here either, shows).
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import { goJsonSyntaxError } from '../../core/api/go-json-syntax.js';
import { x509KeyPairProblem } from '../../core/crypto/x509-key-pair.js';
import type { Secret } from './resources.js';
import { SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_SECRET_TYPE } from '../../core/authn/legacy-service-account-token.js';

export const SECRET_TYPE_SERVICE_ACCOUNT_TOKEN = SERVICE_ACCOUNT_TOKEN_SECRET_TYPE;
export const SECRET_TYPE_DOCKERCFG = 'platform/dockercfg';
export const SECRET_TYPE_DOCKER_CONFIG_JSON = 'platform/dockerconfigjson';
export const SECRET_TYPE_BASIC_AUTH = 'platform/basic-auth';
export const SECRET_TYPE_SSH_AUTH = 'platform/ssh-auth';
export const SECRET_TYPE_TLS = 'platform/tls';
/** Upstream's kubernetes.io/service-account.name. */
export { SERVICE_ACCOUNT_NAME_ANNOTATION };

const REDACTED = '<secret contents redacted>';

/** The value kinds encoding/json names when a document is not an object. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** json.Unmarshal(data, &map[string]interface{}{})'s error, undefined when it succeeds (null too). */
function unmarshalMapError(data: Buffer): string | undefined {
  const syntax = goJsonSyntaxError(data);
  if (syntax !== undefined) return syntax;
  const v: unknown = JSON.parse(data.toString('utf8'));
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  return `json: cannot unmarshal ${jsonKind(v)} into Go value of type map[string]interface {}`;
}

const dataKey = (key: string) => `data[${key}]`;
const value = (secret: Secret, key: string): Buffer | undefined => {
  const v = secret.data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64');
};

function dockerConfigErrors(secret: Secret, key: string): FieldError[] {
  const bytes = value(secret, key);
  if (bytes === undefined) return [fieldError.required(dataKey(key))];
  const err = unmarshalMapError(bytes);
  return err === undefined ? [] : [fieldError.invalid(dataKey(key), REDACTED, err)];
}

/** The type-specific part of ValidateSecret. */
export function secretTypeErrors(secret: Secret): FieldError[] {
  const has = (key: string) => secret.data?.[key] !== undefined;
  switch (secret.type) {
    case SECRET_TYPE_SERVICE_ACCOUNT_TOKEN:
      // The uid annotation and the token are a controller's to add later.
      return secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] ? [] : [fieldError.required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_ANNOTATION}]`)];
    case SECRET_TYPE_DOCKERCFG:
      return dockerConfigErrors(secret, '.dockercfg');
    case SECRET_TYPE_DOCKER_CONFIG_JSON:
      return dockerConfigErrors(secret, '.dockerconfigjson');
    case SECRET_TYPE_BASIC_AUTH:
      // Either may be empty, and one of them is enough.
      return has('username') || has('password') ? [] : [fieldError.required(dataKey('username')), fieldError.required(dataKey('password'))];
    case SECRET_TYPE_SSH_AUTH:
      return value(secret, 'ssh-privatekey')?.length ? [] : [fieldError.required(dataKey('ssh-privatekey'))];
    case SECRET_TYPE_TLS:
      return ['tls.crt', 'tls.key'].filter((k) => !has(k)).map((k) => fieldError.required(dataKey(k)));
    default:
      return [];
  }
}

/** warningsForSecret: a TLS Secret whose pair tls.X509KeyPair refuses is stored, with its error as a warning. */
export function secretWarnings(secret: Secret): string[] {
  if (secret.type !== SECRET_TYPE_TLS) return [];
  const problem = x509KeyPairProblem(value(secret, 'tls.crt') ?? Buffer.alloc(0), value(secret, 'tls.key') ?? Buffer.alloc(0));
  return problem ? [problem.reason] : [];
}
