// The certificate admission plugins: CertificateApproval, CertificateSigning and
// CertificateSubjectRestriction (all default-enabled, all validating).
export { CertificateApprovalAdmission } from './approval.js';
export { CertificateSigningAdmission } from './signing.js';
export { CertificateSubjectRestrictionAdmission } from './subject-restriction.js';
