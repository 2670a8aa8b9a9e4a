// CertificateSigning (validating): an UPDATE of certificatesigningrequests/status that changes the
// certificate bytes or the conditions (adding Failed, say) needs `sign` on the old object's signer.
// A status write that changes neither (labels only, or nothing) is not checked.
import { admissionPlugin } from './admission-plugin.js';
import { conditionsEqual } from './conditions-equal.js';
import { certificateOf, conditionsOf, isCsr, signerNameOf } from './csr.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export const CertificateSigningAdmission = admissionPlugin({
  admissionName: 'CertificateSigning',
  pluginName: 'CertificateSigningAdmission',
  phase: 'admitValidate',
  async admit(req, log) {
    if (req.operation !== 'UPDATE' || !isCsr(req, 'status')) return;
    const { object, oldObject } = req;
    if (certificateOf(object).equals(certificateOf(oldObject)) && conditionsEqual(conditionsOf(object), conditionsOf(oldObject))) return;
    const signerName = signerNameOf(oldObject);
    if (await isAuthorizedForSignerName(req, 'sign', signerName, log)) return;
    log.v(4).info('user not permitted to sign CertificateSigningRequest', { name: req.name, signerName, user: req.user.name });
    throw new Error(`user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
  },
});
