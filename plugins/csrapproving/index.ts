// CsrApprovingController: registers the `certificatesigningrequest-approving-controller` (`csrapproving`) controller (on by default) with the
// controller manager: 5 workers of the shared certificate-controller frame around the
// SubjectAccessReview approver.
import { CERTIFICATE_CONTROLLER_CLIENT, certificateController } from '../../core/certificates/certificate-controller.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { sarApprover } from './sar-approver.js';

const PLUGIN_NAME = 'CsrApprovingController';
/** The controller's name upstream (kube-controller-manager's health checks, logger and --help name it so). */
export const CONTROLLER_NAME = 'certificatesigningrequest-approving-controller';
/** Its short name from before upstream named controllers so, which --controllers takes too (the spec's). */
const CONTROLLER_ALIASES = ['csrapproving'];
/** The certificate controller's own name (its queue and log lines), as NewCSRApprovingController's. */
const CERTIFICATE_CONTROLLER_NAME = 'csrapproving';
const WORKERS = 5;

export const CsrApprovingController: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => certificateController(ctx, {
      name: CERTIFICATE_CONTROLLER_NAME, workers: WORKERS, handle: sarApprover(ctx.client),
    }), { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
  },
};

export { RECOGNIZERS, sarApprover, type Recognizer } from './sar-approver.js';
