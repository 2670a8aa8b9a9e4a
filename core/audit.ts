// An audit event as the audit backends receive it (audit.platform/v1 Event, trimmed to what plat fills).
import type { UserInfo } from './authn/user.js';

export interface AuditEvent {
  readonly auditID: string;
  readonly stage: 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
  readonly verb: string;
  readonly requestURI: string;
  readonly user: UserInfo;
  readonly sourceIPs: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: { resource?: string; subresource?: string; name?: string; namespace?: string; apiGroup?: string; apiVersion?: string };
  readonly responseStatus?: { code: number; reason?: string; message?: string };
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}
