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

/**
 * Per CSR object, its first certificate's notAfter (ms), or null when unreadable. The informer
 * never changes a cached object in place (an update replaces it), so each certificate is parsed
 * once, not at every sweep: a full parse costs about half a millisecond, and a controller manager
 * with tens of thousands of issued CSRs would spend seconds of every sweep on it.
 */
const notAfterByObject = new WeakMap<Csr, number | null>();

/** The notAfter of the first certificate of the first PEM block, as upstream's isExpired reads it; null when that does not parse. */
export function firstCertificateNotAfter(csr: Csr): number | null {
  const known = notAfterByObject.get(csr);
  if (known !== undefined) return known;
  const read = readFirstNotAfter(csr);
  notAfterByObject.set(csr, read);
  return read;
}

function readFirstNotAfter(csr: Csr): number | null {
  const found = decodeFirstPemBlock(wireBytes(csr.status?.certificate));
  if (!found) return null;
  try {
    const first = splitCertificates(found.block.der)[0];
    return first ? parseCertificateDer(first).notAfter.getTime() : null;
  } catch {
    return null;
  }
}

/** isExpired: the first certificate of the first PEM block ended before now; unreadable means no. */
export function isExpired(csr: Csr, now: Date): boolean {
  if (!hasCertificate(csr)) return false;
  const notAfter = firstCertificateNotAfter(csr);
  return notAfter !== null && now.getTime() > notAfter;
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
