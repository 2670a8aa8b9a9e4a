// When the cleaner deletes a CSR (upstream's cleaner.go, k8s-behaviour §4.4): issued (Approved and
// a certificate) more than 1h after the approval's lastUpdateTime, denied or failed more than 1h
// after that condition's lastUpdateTime, pending (no conditions at all) more than 24h after
// creation, or issued with a first certificate already past its notAfter. A zero or missing
// timestamp never counts as old; an Approved CSR without a certificate is never cleaned.
import { hasCertificate, wireBytes, type Csr } from '../../core/certificates/csr-object.js';
import { decodeFirstPemBlock, parseCertificateDer, splitCertificates } from '../../core/crypto/index.js';
import { formatDuration } from '../../core/flags/duration.js';

export const APPROVED_EXPIRATION_MS = 3600_000;
export const DENIED_EXPIRATION_MS = 3600_000;
export const PENDING_EXPIRATION_MS = 24 * 3600_000;

/** Why a CSR is deleted: upstream's log message and its key/value pairs. */
export interface CleanupReason {
  readonly message: string;
  readonly fields: Readonly<Record<string, string>>;
}

// Go's zero time.Time, as a client that sent it explicitly would have it stored.
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** isOlderThan: a non-zero time more than `ms` before now. */
export function isOlderThan(time: string | null | undefined, ms: number, now: Date): boolean {
  if (!time) return false;
  const t = Date.parse(time);
  if (Number.isNaN(t) || t === GO_ZERO_TIME) return false;
  return now.getTime() - t > ms;
}

/** isExpired: the first certificate of the first PEM block ended before now; unreadable means no. */
export function isExpired(csr: Csr, now: Date): boolean {
  if (!hasCertificate(csr)) return false;
  const found = decodeFirstPemBlock(wireBytes(csr.status?.certificate));
  if (!found) return false;
  let first: Uint8Array | undefined;
  try {
    first = splitCertificates(found.block.der)[0];
  } catch {
    return false;
  }
  if (!first) return false;
  return now.getTime() > parseCertificateDer(first).notAfter.getTime();
}

const conditionsOf = (csr: Csr) => csr.status?.conditions ?? [];

const rules: readonly ((csr: Csr, now: Date) => CleanupReason | undefined)[] = [
  (csr, now) => conditionsOf(csr).some((c) => c.type === 'Approved' && hasCertificate(csr) && isOlderThan(c.lastUpdateTime, APPROVED_EXPIRATION_MS, now))
    ? { message: 'Cleaning CSR as it is more than approvedExpiration duration old and approved.', fields: { approvedExpiration: formatDuration(APPROVED_EXPIRATION_MS) } }
    : undefined,
  (csr, now) => conditionsOf(csr).some((c) => c.type === 'Denied' && isOlderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now))
    ? { message: 'Cleaning CSR as it is more than deniedExpiration duration old and denied.', fields: { deniedExpiration: formatDuration(DENIED_EXPIRATION_MS) } }
    : undefined,
  // Failed requests share the denied deadline, as upstream.
  (csr, now) => conditionsOf(csr).some((c) => c.type === 'Failed' && isOlderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now))
    ? { message: 'Cleaning CSR as it is more than deniedExpiration duration old and failed.', fields: { deniedExpiration: formatDuration(DENIED_EXPIRATION_MS) } }
    : undefined,
  (csr, now) => conditionsOf(csr).length === 0 && isOlderThan(csr.metadata.creationTimestamp, PENDING_EXPIRATION_MS, now)
    ? { message: 'Cleaning CSR as it is more than pendingExpiration duration old and unhandled.', fields: { pendingExpiration: formatDuration(PENDING_EXPIRATION_MS) } }
    : undefined,
  (csr, now) => conditionsOf(csr).some((c) => c.type === 'Approved') && hasCertificate(csr) && isExpired(csr, now)
    ? { message: 'Cleaning CSR as the associated certificate is expired.', fields: {} }
    : undefined,
];

/** The first rule (in upstream's order) that makes `csr` garbage at `now`, or undefined to keep it. */
export function cleanupReason(csr: Csr, now: Date): CleanupReason | undefined {
  for (const rule of rules) {
    const reason = rule(csr, now);
    if (reason) return reason;
  }
  return undefined;
}
