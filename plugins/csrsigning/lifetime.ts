// How long a certificate from the cluster CA lives (upstream's signer.duration and
// PermissiveSigningPolicy, k8s-behaviour §4.3): the request's expirationSeconds within
// [10 minutes, --cluster-signing-duration]; backdated 5 minutes; a long-lived certificate (8 hours
// or more) gives the backdate back at its end; never past the CA's own notAfter. An expired CA is
// an error (the controller retries), never a Failed condition.
import { goTime } from '../../core/go-time-text.js';

export const BACKDATE_MS = 5 * 60_000;
export const SHORT_MS = 8 * 3600_000;
const MIN_TTL_MS = 10 * 60_000;

/** The lifetime asked for: expirationSeconds if set, capped by the maximum, at least 10 minutes. */
export function certificateTtl(maxTtlMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return maxTtlMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxTtlMs) return maxTtlMs;
  if (requested < MIN_TTL_MS) return MIN_TTL_MS;
  return requested;
}

/**
 * The validity window for a certificate issued at `now` with `ttlMs` under a CA valid until
 * `caNotAfter`. `now` is taken to whole seconds first: certificates carry whole seconds, and
 * requests signed in the same second then share one window (and one batch).
 */
export function validityWindow(now: Date, ttlMs: number, caNotAfter: Date): { notBefore: Date; notAfter: Date } {
  const t = Math.floor(now.getTime() / 1000) * 1000;
  const notBefore = t - BACKDATE_MS;
  let notAfter = ttlMs < SHORT_MS ? t + ttlMs : t + ttlMs - BACKDATE_MS;
  const limit = caNotAfter.getTime();
  if (!(notAfter < limit)) notAfter = limit;
  if (!(notBefore < limit)) throw new Error(`the signer has expired: NotAfter=${goTime(caNotAfter)}`);
  if (!(t < limit)) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${goTime(caNotAfter)}`);
  return { notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
}
