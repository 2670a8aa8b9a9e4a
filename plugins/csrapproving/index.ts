// CsrApprovingController: registers the `csrapproving` controller (on by default) with the
// controller manager: 5 workers of the shared certificate-controller frame around the
// SubjectAccessReview approver.
import { CERTIFICATE_CONTROLLER_CLIENT, certificateController } from '../../core/certificates/certificate-controller.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { sarApprover } from './sar-approver.js';

const PLUGIN_NAME = 'CsrApprovingController';
export const CONTROLLER_NAME = 'csrapproving';
/** Upstream's name for it (what kube-controller-manager's --controllers lists), which --controllers takes too. */
const CONTROLLER_ALIASES = ['certificatesigningrequest-approving-controller'];
const WORKERS = 5;

export const CsrApprovingController: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => certificateController(ctx, {
      name: CONTROLLER_NAME, workers: WORKERS, handle: sarApprover(ctx.client),
    }), { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
  },
};

export { RECOGNIZERS, sarApprover, type Recognizer } from './sar-approver.js';
