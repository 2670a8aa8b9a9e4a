// The CertificateSigningRequest as it travels on the wire and sits in storage: plain JSON, with
// `spec.request` and `status.certificate` as base64 strings. Keeping the wire shape (instead of a
// decoded internal type) means the store, watch and patch code never convert; validation decodes
// the two byte fields where it needs them.
import type { Csr } from '../../core/certificates/csr-object.js';

export type { ConditionStatus, ConditionType, CsrCondition, CsrSpec, CsrStatus } from '../../core/certificates/csr-object.js';

export type CertificateSigningRequest = Csr;

export const CONDITION_APPROVED = 'Approved';
export const CONDITION_DENIED = 'Denied';
export const CONDITION_FAILED = 'Failed';

/** Renamed `kubernetes.io/legacy-unknown`: only objects that already carry it may keep it. */
export { SIGNER_LEGACY_UNKNOWN as LEGACY_UNKNOWN_SIGNER } from '../../core/certificates/csr-object.js';
