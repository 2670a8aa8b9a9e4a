// CsrSigningController: registers the `certificatesigningrequest-signing-controller` (`csrsigning`) controller with the controller manager. It
// signs nothing itself; it hands approved CSRs to whichever plugin taps hooks.sign for their
// signerName (ClusterSigner for the well-known signers, third-party signers for theirs).
import type { Plugin } from '../../core/plugin.js';
import { CERTIFICATE_CONTROLLER_CLIENT } from '../../core/certificates/certificate-controller.js';
import { tappedSigners } from '../../core/signing.js';
import { SigningController } from './signing-controller.js';
import { signingControllerStarting } from './signing-controller-start.js';

const PLUGIN_NAME = 'CsrSigningController';
/** The controller's name upstream (kube-controller-manager's health checks, logger and --help name it so). */
export const CONTROLLER_NAME = 'certificatesigningrequest-signing-controller';
/** Its short name from before upstream named controllers so, which --controllers takes too (the spec's). */
export const CONTROLLER_ALIASES = ['csrsigning'];

export const CsrSigningController: Plugin = {
  name: PLUGIN_NAME,
  calls: ['sign'],
  apply(host) {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => {
      // With no signer at all (no cluster CA files, no signer plugin) there is nothing to run.
      registry.register(CONTROLLER_NAME, (ctx) => {
        signingControllerStarting(ctx.hooks, ctx.logger);
        return tappedSigners(ctx.hooks.sign).length ? new SigningController(ctx) : undefined;
      }, { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES });
    });
  },
};
