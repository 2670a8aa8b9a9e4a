// CsrSigningController: registers the `csrsigning` controller with the controller manager. It
// signs nothing itself; it hands approved CSRs to whichever plugin taps hooks.sign for their
// signerName (ClusterSigner for the well-known signers, third-party signers for theirs).
import type { Plugin } from '../../core/plugin.js';
import { CERTIFICATE_CONTROLLER_CLIENT } from '../../core/certificates/certificate-controller.js';
import { SigningController } from './signing-controller.js';

const PLUGIN_NAME = 'CsrSigningController';
export const CONTROLLER_NAME = 'csrsigning';

export const CsrSigningController: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => {
      registry.register(CONTROLLER_NAME, (ctx) => new SigningController(ctx), { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT });
    });
  },
};
