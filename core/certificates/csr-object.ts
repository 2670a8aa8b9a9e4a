// The CertificateSigningRequest as API clients see it (controllers, the `plat csr` commands): the
// wire JSON, the resource's address, the well-known signer names, and upstream's condition helpers
// (pkg/controller/certificates: GetCertApprovalCondition, IsCertificateRequestApproved). Clients
// read it through the API, so they need no part of the plugin that serves it.
import type { ApiObject } from '../api/meta.js';
import type { ResourceRef } from '../client/rest-client.js';

export const CERTIFICATES_GROUP = 'certificates.platform';
export const CSR_RESOURCE: ResourceRef = { group: CERTIFICATES_GROUP, version: 'v1', plural: 'certificatesigningrequests' };
/** `<resource>.<group>`, as Status messages and kubectl name the resource. */
export const CSR_QUALIFIED = `${CSR_RESOURCE.plural}.${CERTIFICATES_GROUP}`;

/** The renamed well-known signers (k8s-behaviour preface). */
export const SIGNER_APISERVER_CLIENT = 'platform/apiserver-client';
export const SIGNER_NODEAGENT_CLIENT = 'platform/apiserver-client-nodeagent';
export const SIGNER_NODEAGENT_SERVING = 'platform/nodeagent-serving';
export const SIGNER_LEGACY_UNKNOWN = 'platform/legacy-unknown';

export interface CsrCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  /** RFC 3339; `null` is a zero time. */
  lastUpdateTime?: string | null;
  lastTransitionTime?: string | null;
}

export interface Csr extends ApiObject {
  spec: {
    /** base64 of the PEM request. */
    request: string;
    signerName: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: {
    conditions?: CsrCondition[];
    /** base64 of the issued PEM certificate(s). */
    certificate?: string;
  };
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
