// NodeRestrictionAdmission: admission plugin NodeRestriction (mutating, not default-enabled). Limits
// what node identities (system:node:<name> in system:nodes) may write. plat serves none of the
// node-scoped resources upstream guards (pods, nodes, leases, ...), so what applies here is the CSR
// rule and the refusal of a node identity without a node name.
import { ADMISSION_PLUGIN_KIND, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { admitNodeCsr, CSR_GROUP, CSR_RESOURCE } from './csr-check.js';
import { nodeIdentity } from './node-identity.js';

const PLUGIN_NAME = 'NodeRestrictionAdmission';
const NAME = 'NodeRestriction';

async function admit(req: AdmissionRequest): Promise<void> {
  const nodeName = nodeIdentity(req.user);
  if (nodeName === undefined) return;
  if (nodeName === '') throw new Error(`could not determine node from user ${JSON.stringify(req.user.name)}`);
  if (req.group === CSR_GROUP && req.resource === CSR_RESOURCE) admitNodeCsr(req, nodeName);
}

export const NodeRestrictionAdmission: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, NAME, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, () => {
      if (!isAdmissionPluginEnabled(host, NAME)) return;
      const stage = admissionStage(NAME);
      host.hooks.admitMutate.tapPromise({ name: PLUGIN_NAME, stage }, admit);
      // Upstream runs the mutating phase on DELETE too; plat's store runs only the validating one
      // there, so deletes are checked in that phase (only the no-node-name rule can apply to them).
      host.hooks.admitValidate.tapPromise({ name: PLUGIN_NAME, stage }, (req) => (req.operation === 'DELETE' ? admit(req) : Promise.resolve()));
    });
  },
};
