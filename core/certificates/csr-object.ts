// The CertificateSigningRequest as it travels on the wire and sits in storage, shared by the plugin
// that serves it and by its API clients (controllers, the `plat csr` commands): the wire JSON, the
// resource's address, the well-known signer names, and upstream's condition helpers
// (pkg/controller/certificates: GetCertApprovalCondition, IsCertificateRequestApproved).
import type { ApiObject } from '../api/meta.js';
import type { ResourceRef } from '../client/rest-client.js';

export const CERTIFICATES_GROUP = 'certificates.platform';
export const CSR_RESOURCE: ResourceRef = { group: CERTIFICATES_GROUP, version: 'v1', plural: 'certificatesigningrequests', kind: 'CertificateSigningRequest' };
/** `<resource>.<group>`, as Status messages and kubectl name the resource. */
export const CSR_QUALIFIED = `${CSR_RESOURCE.plural}.${CERTIFICATES_GROUP}`;

/** The renamed well-known signers (k8s-behaviour preface). */
export const SIGNER_APISERVER_CLIENT = 'platform/apiserver-client';
export const SIGNER_NODEAGENT_CLIENT = 'platform/apiserver-client-nodeagent';
export const SIGNER_NODEAGENT_SERVING = 'platform/nodeagent-serving';
export const SIGNER_LEGACY_UNKNOWN = 'platform/legacy-unknown';

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

/**
 * The CertificateSigningRequest as it travels on the wire and sits in storage: plain JSON, with
 * `spec.request` and `status.certificate` as base64 strings.
 */
export interface Csr extends ApiObject {
  spec: CsrSpec;
  status?: CsrStatus;
}

/** GetCertApprovalCondition: whether an Approved and whether a Denied condition exists (status ignored). */
export function approvalState(csr: Csr): { approved: boolean; denied: boolean } {
  let approved = false;
  let denied = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Approved') approved = true;
    if (c.type === 'Denied') denied = true;
  }
  return { approved, denied };
}

/** IsCertificateRequestApproved: approved and not denied. */
export function isApproved(csr: Csr): boolean {
  const { approved, denied } = approvalState(csr);
  return approved && !denied;
}

/** HasTrueCondition: a condition of `type` whose status is True or empty. */
export function hasTrueCondition(csr: Pick<Csr, 'status'>, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && (c.status === 'True' || !c.status));
}

export const hasCertificate = (csr: Csr): boolean => typeof csr.status?.certificate === 'string' && csr.status.certificate.length > 0;

/** The bytes behind a base64 wire field (spec.request, status.certificate). */
export const wireBytes = (b64: string | undefined): Buffer => Buffer.from(b64 ?? '', 'base64');
