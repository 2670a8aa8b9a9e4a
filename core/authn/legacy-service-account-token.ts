// Legacy Secret-based service-account tokens, as upstream's pkg/serviceaccount/legacy.go writes and
// reads them, in plat's names (`kubernetes.io/` becomes `platform/`, upstream's issuer
// `kubernetes/serviceaccount` becomes `platform/serviceaccount`): shared by the controller manager's
// tokens controller and cleaner, which write them, and the API server's authenticator, which reads them.
import { JwtError, type DecodedJwt } from './jwt.js';

export const LEGACY_ISSUER = 'platform/serviceaccount';
/** v1.SecretTypeServiceAccountToken. */
export const SERVICE_ACCOUNT_TOKEN_SECRET_TYPE = 'platform/service-account-token';
/** v1.ServiceAccountNameKey and ServiceAccountUIDKey. */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'platform/service-account.name';
export const SERVICE_ACCOUNT_UID_ANNOTATION = 'platform/service-account.uid';
/** serviceaccount.LastUsedLabelKey and InvalidSinceLabelKey: dates, YYYY-MM-DD in UTC. */
export const LAST_USED_LABEL = 'platform/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'platform/legacy-token-invalid-since';
/** The Secret's data keys (v1.ServiceAccountTokenKey, ServiceAccountNamespaceKey, ServiceAccountRootCAKey). */
export const TOKEN_KEY = 'token';
export const NAMESPACE_KEY = 'namespace';
export const ROOT_CA_KEY = 'ca.crt';

/** legacyPrivateClaims' JSON names. */
const CLAIM = {
  namespace: 'platform/serviceaccount/namespace',
  secretName: 'platform/serviceaccount/secret.name',
  serviceAccountName: 'platform/serviceaccount/service-account.name',
  serviceAccountUID: 'platform/serviceaccount/service-account.uid',
} as const;

const SA_PREFIX = 'system:serviceaccount:';

export interface LegacyClaims {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
  readonly secretName: string;
}

/**
 * LegacyClaims with the generator's issuer: no aud, no times, never expiring. The keys in the order
 * Go's json.Marshal of the merged claim map writes them (sorted), so a token is upstream's byte for byte.
 */
export function legacyTokenClaims(c: LegacyClaims): Record<string, unknown> {
  return {
    iss: LEGACY_ISSUER,
    [CLAIM.namespace]: c.namespace,
    [CLAIM.secretName]: c.secretName,
    [CLAIM.serviceAccountName]: c.serviceAccountName,
    [CLAIM.serviceAccountUID]: c.serviceAccountUID,
    sub: `${SA_PREFIX}${c.namespace}:${c.serviceAccountName}`,
  };
}

/** apiserverserviceaccount.SplitUsername, as far as the comparison with the claims needs it. */
function splitUsername(sub: string): [string, string] | undefined {
  if (!sub.startsWith(SA_PREFIX)) return undefined;
  const parts = sub.slice(SA_PREFIX.length).split(':');
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : undefined;
}

/** The claims legacyValidator.Validate checks before any lookup, in its order and words. */
export function readLegacyClaims(jwt: DecodedJwt): LegacyClaims & { subject: string } {
  const p = jwt.payload;
  // A value that is no string reads as missing (Go would fail to decode it into the struct).
  const text = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  const subject = text('sub');
  if (!subject) throw new JwtError('sub claim is missing');
  const namespace = text(CLAIM.namespace);
  if (!namespace) throw new JwtError('namespace claim is missing');
  const secretName = text(CLAIM.secretName);
  if (!secretName) throw new JwtError('secretName claim is missing');
  const serviceAccountName = text(CLAIM.serviceAccountName);
  if (!serviceAccountName) throw new JwtError('serviceAccountName claim is missing');
  const serviceAccountUID = text(CLAIM.serviceAccountUID);
  if (!serviceAccountUID) throw new JwtError('serviceAccountUID claim is missing');
  const split = splitUsername(subject);
  if (!split || split[0] !== namespace || split[1] !== serviceAccountName) throw new JwtError('sub claim is invalid');
  return { namespace, serviceAccountName, serviceAccountUID, secretName, subject };
}

/** The label's date (Go's "2006-01-02" of a UTC time). */
export const legacyTokenDate = (t: Date): string => t.toISOString().slice(0, 10);
