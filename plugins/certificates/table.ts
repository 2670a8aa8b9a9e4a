// `kubectl get csr` columns (k8s-behaviour §2.7), as upstream's printCertificateSigningRequest.
import { humanDuration, age } from '../../core/api/human-duration.js';
import type { TableColumn, TablePrinter } from '../../core/registry/resource.js';
import { CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, type CertificateSigningRequest } from './types.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';

const column = (name: string, description: string, format = ''): TableColumn =>
  ({ name, type: 'string', format, description, priority: 0 });

export const CSR_COLUMNS: readonly TableColumn[] = [
  column('Name', NAME_DESCRIPTION, 'name'),
  column('Age', CREATION_TIMESTAMP_DESCRIPTION),
  column('SignerName', 'signerName indicates the requested signer, and is a qualified name.'),
  // Upstream describes this column with the doc of spec.request (a slip); the cell is the username.
  column('Requestor', 'username contains the name of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.'),
  column('RequestedDuration', 'expirationSeconds is the requested duration of validity of the issued certificate.'),
  column('Condition', 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".'),
];

/**
 * extractCSRStatus: the decision first (Denied wins over Approved, which wins over Pending), then
 * the facts `Failed` and `Issued`. Condition status is ignored, as upstream.
 */
export function csrConditionString(obj: CertificateSigningRequest): string {
  const types = new Set((obj.status?.conditions ?? []).map((c) => c?.type));
  let out = types.has(CONDITION_DENIED) ? 'Denied' : types.has(CONDITION_APPROVED) ? 'Approved' : 'Pending';
  if (types.has(CONDITION_FAILED)) out += ',Failed';
  if (typeof obj.status?.certificate === 'string' && obj.status.certificate.length > 0) out += ',Issued';
  return out;
}

/** translateTimestampSince. */

export const csrTablePrinter: TablePrinter<CertificateSigningRequest> = {
  columns: CSR_COLUMNS,
  cells(obj, now) {
    const spec = obj.spec ?? {};
    const signerName = typeof spec.signerName === 'string' && spec.signerName !== '' ? spec.signerName : '<none>';
    const requested = typeof spec.expirationSeconds === 'number' ? humanDuration(spec.expirationSeconds * 1000) : '<none>';
    return [obj.metadata.name ?? '', age(obj.metadata.creationTimestamp, now), signerName, spec.username ?? '', requested, csrConditionString(obj)];
  },
};

export { age };
