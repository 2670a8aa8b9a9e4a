// What an exec credential plugin printed, read as client-go's refreshCredsLocked reads it: the
// UniversalDecoder of the configured client.authentication.k8s.io version (YAML or JSON, version and
// kind sniffed, kind defaulting to ExecCredential), then its checks, each failure in client-go's
// words so that a plugin author can search for them.
import { yaml } from '../yaml-module.js';
import { GO_YAML } from '../api/go-yaml.js';
import { yamlError } from '../server/body.js';
import { goJsonSyntaxError } from '../api/go-json-syntax.js';
import { interpretError } from '../api/go-decode-errors.js';
import { notRegisteredText } from '../api/scheme-errors.js';
import { goStructFieldError } from '../api/patch/json-value.js';
import { GoTimeError, parseGoTime, RFC3339 } from '../api/go-time.js';
import { clientPairError } from './kubeconfig-tls.js';

export const EXEC_GROUP = 'client.authentication.k8s.io';
/** The versions client-go v1.32 accepts (v1alpha1 was removed in v1.24). */
export const EXEC_VERSIONS: readonly string[] = [`${EXEC_GROUP}/v1`, `${EXEC_GROUP}/v1beta1`];
/** runtime.NewScheme's caller in exec.go, which its not-registered errors name. */
const SCHEME = 'pkg/client/auth/exec/exec.go:62';

export interface ExecOutput {
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** status.expirationTimestamp (ms since the epoch); without one the credential never expires. */
  readonly expiresAt?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `stdout` for a plugin configured with `apiVersion` (one of EXEC_VERSIONS); throws Error with client-go's text. */
export function readExecOutput(stdout: string, apiVersion: string): ExecOutput {
  const value = parse(stdout);
  const sniffed = interpretError(value);
  if (sniffed) throw new Error(`decoding stdout: couldn't get version/kind; json parse error: ${sniffed}`);
  const o = isObj(value) ? value : {};
  const version = typeof o['apiVersion'] === 'string' ? o['apiVersion'] : '';
  const kind = typeof o['kind'] === 'string' && o['kind'] !== '' ? o['kind'] : 'ExecCredential';
  // Without an apiVersion the decoder keeps the internal version it decodes into.
  if (version === '') throw versionMismatch(apiVersion, `${EXEC_GROUP}/__internal`);
  if (kind !== 'ExecCredential' || !EXEC_VERSIONS.includes(version)) throw new Error(`decoding stdout: ${notRegisteredText(kind, version, SCHEME)}`);
  const status = o['status'];
  const fieldProblem = statusTypeError(status, version);
  if (fieldProblem) throw new Error(`decoding stdout: ${fieldProblem}`);
  let expiresAt: number | undefined;
  if (isObj(status) && typeof status['expirationTimestamp'] === 'string') {
    try {
      const t = parseGoTime(status['expirationTimestamp'], RFC3339);
      expiresAt = t.seconds * 1000 + Math.floor(t.nanos / 1e6);
    } catch (e) {
      if (e instanceof GoTimeError) throw new Error(`decoding stdout: ${e.message}`);
      throw e;
    }
  }
  if (version !== apiVersion) throw versionMismatch(apiVersion, version);
  if (!isObj(status)) throw new Error("exec plugin didn't return a status field");
  const text = (k: string): string => (typeof status[k] === 'string' ? status[k] : '');
  const token = text('token');
  const certData = text('clientCertificateData');
  const keyData = text('clientKeyData');
  if (token === '' && certData === '' && keyData === '') throw new Error("exec plugin didn't return a token or cert/key pair");
  if ((certData === '') !== (keyData === '')) throw new Error('exec plugin returned only certificate or key, not both');
  let pair: { cert: Buffer; key: Buffer } | undefined;
  if (certData !== '') {
    pair = { cert: Buffer.from(certData), key: Buffer.from(keyData) };
    const problem = clientPairError(pair.cert, pair.key);
    if (problem) throw new Error(`failed parsing client key/certificate: ${problem}`);
  }
  return {
    ...(token !== '' ? { token } : {}),
    ...(pair ?? {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

/** utilyaml.ToJSON: what starts with `{` is JSON as it is (its syntax errors found by the version/kind sniff), the rest YAML. */
function parse(stdout: string): unknown {
  if (stdout.trimStart().startsWith('{')) {
    const syntax = goJsonSyntaxError(Buffer.from(stdout));
    if (syntax) throw new Error(`decoding stdout: couldn't get version/kind; json parse error: ${syntax}`);
    return JSON.parse(stdout) as unknown;
  }
  const [doc] = yaml().parseAllDocuments(stdout, GO_YAML);
  const syntax = doc?.errors[0];
  if (syntax) throw new Error(`decoding stdout: ${yamlError(syntax, stdout)}`);
  return JSON.parse(JSON.stringify(doc?.toJS() ?? null)) as unknown;
}

function versionMismatch(configured: string, returned: string): Error {
  return new Error(`exec plugin is configured to use API version ${configured}, plugin returned version ${returned}`);
}

/** encoding/json's error for a status field of the wrong JSON type (metav1.Time's own for the timestamp). */
function statusTypeError(status: unknown, version: string): string | undefined {
  if (status === undefined || status === null) return undefined;
  const pkg = version.endsWith('/v1beta1') ? 'v1beta1' : 'v1';
  if (!isObj(status)) return goStructFieldError(status, 'ExecCredential', 'status', `${pkg}.ExecCredentialStatus`);
  for (const k of ['token', 'clientCertificateData', 'clientKeyData']) {
    const v = status[k];
    if (v !== undefined && v !== null && typeof v !== 'string') return goStructFieldError(v, 'ExecCredentialStatus', `status.${k}`, 'string');
  }
  const t = status['expirationTimestamp'];
  // metav1.Time.UnmarshalJSON unmarshals into a string first; encoding/json names the field it was for.
  if (t !== undefined && t !== null && typeof t !== 'string') return goStructFieldError(t, 'ExecCredentialStatus', 'status.expirationTimestamp', 'string');
  return undefined;
}
