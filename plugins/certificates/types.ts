// The CertificateSigningRequest as it travels on the wire and sits in storage: plain JSON, with
// `spec.request` and `status.certificate` as base64 strings. Keeping the wire shape (instead of a
// decoded internal type) means the store, watch and patch code never convert; validation decodes
// the two byte fields where it needs them.
import type { ApiObject } from '../../core/api/meta.js';

export type ConditionType = 'Approved' | 'Denied' | 'Failed' | (string & {});
export type ConditionStatus = 'True' | 'False' | 'Unknown' | (string & {});

export interface CsrCondition {
  type: ConditionType;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  /** RFC 3339; `null` is how a zero metav1.Time serializes. */
  lastUpdateTime?: string | null;
  lastTransitionTime?: string | null;
}

export interface CsrSpec {
  /** base64 of the PEM text of a PKCS#10 request. */
  request: string;
  signerName: string;
  expirationSeconds?: number;
  usages?: string[];
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface CsrStatus {
  conditions?: CsrCondition[];
  /** base64 of the PEM text of the issued certificate (and intermediates). */
  certificate?: string;
}

export interface CertificateSigningRequest extends ApiObject {
  spec: CsrSpec;
  status?: CsrStatus;
}

export const CONDITION_APPROVED = 'Approved';
export const CONDITION_DENIED = 'Denied';
export const CONDITION_FAILED = 'Failed';

/** Renamed `kubernetes.io/legacy-unknown`: only objects that already carry it may keep it. */
export const LEGACY_UNKNOWN_SIGNER = 'platform/legacy-unknown';
