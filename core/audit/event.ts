// An audit event as the audit backends receive it: upstream's audit.k8s.io/v1 Event (here
// audit.platform/v1), its fields in the wire order a backend's JSON keeps, without kind and
// apiVersion (a backend says which version it writes).
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
export const AUDIT_STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];
/** audit.k8s.io/v1, renamed: what --audit-log-version and a policy file's apiVersion name. */
export const AUDIT_API_VERSION = 'audit.platform/v1';

/** authentication/v1 UserInfo as an event carries it: every field omitted when empty. */
export interface AuditUser {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface AuditObjectRef {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resourceVersion?: string;
  readonly subresource?: string;
}

/** A metav1.Status as the event keeps it (`metadata` is always there, as Go's non-omitempty ListMeta). */
export interface AuditResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code?: number;
}

export interface AuditEvent {
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUser;
  readonly impersonatedUser?: AuditUser;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectRef;
  readonly responseStatus?: AuditResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  /** Microsecond RFC 3339 in UTC (metav1.MicroTime): `2026-12-01T06:20:57.123456Z`. */
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** The annotations in the order Go writes a map's keys (sorted), whatever order they were added in. */
export function sortedAnnotations(a: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(a).sort()) out[k] = a[k]!;
  return out;
}

export const levelAtLeast = (level: AuditLevel, than: AuditLevel): boolean => AUDIT_LEVELS.indexOf(level) >= AUDIT_LEVELS.indexOf(than);
