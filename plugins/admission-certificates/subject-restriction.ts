// CertificateSubjectRestriction (validating): a CSR for platform/apiserver-client may not ask for
// group system:masters (Organization), which would make a certificate that bypasses authorization
// wherever system:masters is privileged.
import { MASTERS_GROUP } from '../../core/authn/user.js';
import { CryptoError, parseWireCsr } from '../../core/crypto/index.js';
import { admissionPlugin } from './admission-plugin.js';
import { isCsr, requestTextOf, signerNameOf } from './csr.js';

const APISERVER_CLIENT_SIGNER = 'platform/apiserver-client';

export const CertificateSubjectRestrictionAdmission = admissionPlugin({
  admissionName: 'CertificateSubjectRestriction',
  pluginName: 'CertificateSubjectRestrictionAdmission',
  phase: 'admitValidate',
  async admit(req, log) {
    if (req.operation !== 'CREATE' || !isCsr(req, '')) return;
    if (signerNameOf(req.object) !== APISERVER_CLIENT_SIGNER) return;
    let organizations: readonly string[];
    try {
      organizations = parseWireCsr(requestTextOf(req.object)).organizations;
    } catch (e) {
      // Validation has parsed the request already (the parse shared here), so this is not reached in practice.
      if (!(e instanceof CryptoError)) throw e;
      throw new Error(`failed to parse CSR: ${e.message}`);
    }
    if (!organizations.includes(MASTERS_GROUP)) return;
    log.v(4).info('CSR rejected: signer with system:masters group', { name: req.name, signerName: APISERVER_CLIENT_SIGNER });
    throw new Error(`use of ${APISERVER_CLIENT_SIGNER} signer with ${MASTERS_GROUP} group is not allowed`);
  },
});
