// The audit event type the `audit` hook carries (core/audit/event.ts).
export type { AuditEvent, AuditLevel, AuditStage, AuditUser, AuditObjectRef, AuditResponseStatus } from './audit/event.js';
