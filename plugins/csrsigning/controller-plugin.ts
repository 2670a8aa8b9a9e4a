// CsrSigningController: registers the `csrsigning` controller with the controller manager. It
// signs nothing itself; it hands approved CSRs to whichever plugin taps hooks.sign for their
// signerName (ClusterSigner for the well-known signers, third-party signers for theirs).
import type { Plugin } from '../../core/plugin.js';
import { CERTIFICATE_CONTROLLER_CLIENT } from '../../core/certificates/certificate-controller.js';
import { tappedSigners } from '../../core/signing.js';
import { SigningController } from './signing-controller.js';

const PLUGIN_NAME = 'CsrSigningController';
export const CONTROLLER_NAME = 'csrsigning';
/** Upstream's name for it (what kube-controller-manager's --controllers lists), which --controllers takes too. */
export const CONTROLLER_ALIASES = ['certificatesigningrequest-signing-controller'];

export const CsrSigningController: Plugin = {
  name: PLUGIN_NAME,
  calls: ['sign'],
  apply(host) {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => {
      // With no signer at all (no cluster CA files, no signer plugin) there is nothing to run.
      registry.register(CONTROLLER_NAME, (ctx) => (tappedSigners(ctx.hooks.sign).length ? new SigningController(ctx) : undefined),
        { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES });
    });
  },
};
