// CertificateApproval (validating): every UPDATE of certificatesigningrequests/approval, even one
// that changes nothing, needs `approve` on the signer of the OLD object (a request cannot rename
// its signer on the way to approval).
import { admissionPlugin } from './admission-plugin.js';
import { isCsr, signerNameOf } from './csr.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export const CertificateApprovalAdmission = admissionPlugin({
  admissionName: 'CertificateApproval',
  pluginName: 'CertificateApprovalAdmission',
  phase: 'admitValidate',
  async admit(req, log) {
    if (req.operation !== 'UPDATE' || !isCsr(req, 'approval')) return;
    const signerName = signerNameOf(req.oldObject);
    if (await isAuthorizedForSignerName(req, 'approve', signerName, log)) return;
    log.v(4).info('user not permitted to approve CertificateSigningRequest', { name: req.name, signerName, user: req.user.name });
    throw new Error(`user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
  },
});
