// The CertificateSigningRequest resource as the API machinery sees it (k8s-behaviour §2.1).
import type { ResourceDefinition } from '../../core/registry/resource.js';
import { CSR_DESCRIPTION, csrSchema } from './schema.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.js';
import { csrTablePrinter } from './table.js';
import type { CertificateSigningRequest } from './types.js';

export const CSR_GROUP = 'certificates.platform';
export const CSR_VERSION = 'v1';

export const csrResource: ResourceDefinition<CertificateSigningRequest> = {
  group: CSR_GROUP,
  version: CSR_VERSION,
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  scope: 'Cluster',
  schema: csrSchema,
  description: CSR_DESCRIPTION,
  strategy: csrStrategy,
  subresources: [
    { name: 'status', strategy: csrStatusStrategy },
    { name: 'approval', strategy: csrApprovalStrategy },
  ],
  selectableFields: (obj) => ({ 'spec.signerName': typeof obj.spec?.signerName === 'string' ? obj.spec.signerName : '' }),
  table: csrTablePrinter,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // No validateName: CSR names are not DNS-validated (§0 item 3); the store's path-segment checks
  // (not empty, not `.` or `..`, no `/` or `%`) are exactly the upstream rule.
};
