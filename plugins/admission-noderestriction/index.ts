// NodeRestrictionAdmission: admission plugin NodeRestriction (mutating, not default-enabled). Limits
// what node identities (system:node:<name> in system:nodes) may write: CSRs for their own
// identity, their own Node (with the label, taint, owner-reference and configSource rules) and
// their own Lease in plat-node-lease; a node identity without a name may write nothing.
import { ADMISSION_PLUGIN_KIND, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { admitNodeCsr, CSR_GROUP, CSR_RESOURCE } from './csr-check.js';
import { admitLease, admitNode, LEASE_GROUP, LEASE_RESOURCE, NODE_RESOURCE } from './node-check.js';
import { nodeIdentity } from './node-identity.js';

const PLUGIN_NAME = 'NodeRestrictionAdmission';
const NAME = 'NodeRestriction';

// Deprecated and off in 1.32: on, upstream lets nodes' CSRs through unchecked, as before 1.31.
const INSECURE_CSRS_GATE = 'AllowInsecureKubeletCertificateSigningRequests';

async function admit(req: AdmissionRequest, insecureCsrs: boolean): Promise<void> {
  const nodeName = nodeIdentity(req.user);
  if (nodeName === undefined) return;
  if (nodeName === '') throw new Error(`could not determine node from user ${JSON.stringify(req.user.name)}`);
  if (req.group === CSR_GROUP && req.resource === CSR_RESOURCE) {
    if (!insecureCsrs) admitNodeCsr(req, nodeName);
  }
  else if (req.group === '' && req.resource === NODE_RESOURCE) admitNode(req, nodeName);
  else if (req.group === LEASE_GROUP && req.resource === LEASE_RESOURCE) admitLease(req, nodeName);
}

export const NodeRestrictionAdmission: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, NAME, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, () => {
      if (!isAdmissionPluginEnabled(host, NAME)) return;
      // The store runs the mutating phase on create, update and delete alike, as upstream does.
      const insecureCsrs = host.featureGates.enabled(INSECURE_CSRS_GATE);
      host.hooks.admitMutate.tapPromise({ name: PLUGIN_NAME, stage: admissionStage(NAME) }, (req) => admit(req, insecureCsrs));
    });
  },
};
