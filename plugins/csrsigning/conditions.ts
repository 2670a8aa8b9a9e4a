// Reading a CSR's status conditions as upstream's controllers do (certificate_controller_utils.go):
// approval is an Approved condition without a Denied one, whatever their status fields say; a
// condition "is true" when its status is True or empty.
import type { ApiObject } from '../../core/api/meta.js';

export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export type CsrObject = ApiObject & {
  spec?: { signerName?: string; request?: string; usages?: string[]; expirationSeconds?: number; [k: string]: unknown };
  status?: { certificate?: string; conditions?: CsrCondition[]; [k: string]: unknown };
};

const conditions = (csr: CsrObject): CsrCondition[] => csr.status?.conditions ?? [];

export function isApproved(csr: CsrObject): boolean {
  const types = new Set(conditions(csr).map((c) => c.type));
  return types.has('Approved') && !types.has('Denied');
}

export function hasTrueCondition(csr: CsrObject, type: string): boolean {
  return conditions(csr).some((c) => c.type === type && (c.status === 'True' || !c.status));
}
