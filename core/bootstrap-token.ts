// Bootstrap token Secrets as cluster-bootstrap's util/secrets reads them (GetData, GetExpiration),
// for the two that must agree on when a token has expired: the authenticator that refuses it and
// the token cleaner that deletes it. Upstream's GetExpiration logs at V(3) itself; here the line is
// handed back, so that each caller logs it with its own logger.
import { GoTimeError, parseGoTime, RFC3339 } from './api/go-time.js';

/** The namespace of bootstrap token Secrets (kube-system upstream). */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'plat-system';
/** bootstrapapi.SecretTypeBootstrapToken. */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.platform/token';
/** bootstrapapi.BootstrapTokenExpirationKey. */
export const BOOTSTRAP_TOKEN_EXPIRATION_KEY = 'expiration';

/** The parts of a Secret these read, as the stored object or the informer's copy has them. */
export interface BootstrapSecretLike {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly data?: Readonly<Record<string, string>> | undefined;
}

/** GetData: the value of `key` as text, undefined when the Secret has none. */
export function bootstrapSecretData(secret: BootstrapSecretLike, key: string): string | undefined {
  const value = secret.data?.[key];
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}

/** Expired (or counting as such) with upstream's V(3) line, or the time left: 0 when it never expires. */
export type BootstrapTokenExpiration =
  | { readonly expired: true; readonly remainingMs: 0; readonly message: string }
  | { readonly expired: false; readonly remainingMs: number };

/**
 * GetExpiration: an empty or missing `expiration` never expires; anything but Go's time.RFC3339
 * counts as expired (Date.parse would take a bare date, a zoneless local time or an RFC 1123 date).
 */
export function bootstrapTokenExpiration(secret: BootstrapSecretLike, now: Date): BootstrapTokenExpiration {
  const expiration = bootstrapSecretData(secret, BOOTSTRAP_TOKEN_EXPIRATION_KEY) ?? '';
  if (expiration === '') return { remainingMs: 0, expired: false };
  const where = `${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
  let expires: number;
  try {
    const t = parseGoTime(expiration, RFC3339);
    expires = t.seconds * 1000 + t.nanos / 1e6;
  } catch (err) {
    if (!(err instanceof GoTimeError)) throw err;
    return { remainingMs: 0, expired: true, message: `Unparseable expiration time (${expiration}) in ${where} Secret: ${err.message}. Treating as expired.` };
  }
  const remainingMs = expires - now.getTime();
  if (remainingMs <= 0) return { remainingMs: 0, expired: true, message: `Expired bootstrap token in ${where} Secret: ${expiration}` };
  return { remainingMs, expired: false };
}
