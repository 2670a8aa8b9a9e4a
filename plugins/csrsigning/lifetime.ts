// How long a certificate from the cluster CA lives (upstream's signer.duration and
// PermissiveSigningPolicy, k8s-behaviour §4.3): the request's expirationSeconds within
// [10 minutes, --cluster-signing-duration]; the window itself is core's validityWindow (shared
// with `plat ca sign`). An expired CA is an error (the controller retries), never a Failed condition.
export { validityWindow } from '../../core/certificates/validity-window.js';

const MIN_TTL_MS = 10 * 60_000;

/** The lifetime asked for: expirationSeconds if set, capped by the maximum, at least 10 minutes. */
export function certificateTtl(maxTtlMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return maxTtlMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxTtlMs) return maxTtlMs;
  if (requested < MIN_TTL_MS) return MIN_TTL_MS;
  return requested;
}
