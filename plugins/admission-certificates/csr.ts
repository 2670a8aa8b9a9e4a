// What the certificate admission plugins read from a CertificateSigningRequest in its wire form
// (base64 byte fields), without depending on the certificates plugin that owns the resource.
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { ApiObject } from '../../core/api/meta.js';

export const CSR_GROUP = 'certificates.platform';
export const CSR_RESOURCE = 'certificatesigningrequests';

/** The request is for `certificatesigningrequests[/subresource]` in the certificates group. */
export function isCsr(req: AdmissionRequest, subresource: string): boolean {
  return req.group === CSR_GROUP && req.resource === CSR_RESOURCE && req.subresource === subresource;
}

const field = (obj: ApiObject | undefined, section: string, name: string): unknown => {
  const part = (obj as Record<string, unknown> | undefined)?.[section];
  return part !== null && typeof part === 'object' ? (part as Record<string, unknown>)[name] : undefined;
};

const bytes = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : '', 'base64');

export function signerNameOf(obj: ApiObject | undefined): string {
  const v = field(obj, 'spec', 'signerName');
  return typeof v === 'string' ? v : '';
}

/** spec.request as carried (base64 of the PEM text; '' when absent or not a string). */
export function requestTextOf(obj: ApiObject | undefined): string {
  const v = field(obj, 'spec', 'request');
  return typeof v === 'string' ? v : '';
}

/** status.certificate decoded; absent and empty are the same (Go omits an empty byte field). */
export function certificateOf(obj: ApiObject | undefined): Buffer {
  return bytes(field(obj, 'status', 'certificate'));
}

export function conditionsOf(obj: ApiObject | undefined): unknown[] {
  const v = field(obj, 'status', 'conditions');
  return Array.isArray(v) ? v : [];
}
