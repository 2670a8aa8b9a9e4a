// The validity window of a certificate issued from a CA (upstream's PermissiveSigningPolicy.apply,
// k8s-behaviour §4.3): backdated 5 minutes; a long-lived certificate (8 hours or more) gives the
// backdate back at its end, so it lives exactly its TTL; never past the CA's own notAfter. Shared by
// the signing controller and the offline `plat ca sign`, so both issue the same windows.
import { goTime } from '../go-time-text.js';

export const BACKDATE_MS = 5 * 60_000;
export const SHORT_MS = 8 * 3600_000;

/**
 * The validity window for a certificate issued at `now` with `ttlMs` under a CA valid until
 * `caNotAfter`; `capped` when the CA's expiry cut it short. `now` is taken to whole seconds first:
 * certificates carry whole seconds, and requests signed in the same second then share one window
 * (and one batch). An expired CA throws with upstream's texts.
 */
export function validityWindow(now: Date, ttlMs: number, caNotAfter: Date): { notBefore: Date; notAfter: Date; capped: boolean } {
  const t = Math.floor(now.getTime() / 1000) * 1000;
  const notBefore = t - BACKDATE_MS;
  let notAfter = ttlMs < SHORT_MS ? t + ttlMs : t + ttlMs - BACKDATE_MS;
  const limit = caNotAfter.getTime();
  const capped = !(notAfter < limit);
  if (capped) notAfter = limit;
  if (!(notBefore < limit)) throw new Error(`the signer has expired: NotAfter=${goTime(caNotAfter)}`);
  if (!(t < limit)) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${goTime(caNotAfter)}`);
  return { notBefore: new Date(notBefore), notAfter: new Date(notAfter), capped };
}
