// ClusterSigner: the controller manager's own CA for the four well-known signers
// (--cluster-signing-* flags). For each signer with a CA pair it taps hooks.sign.for(signer);
// the CsrSigningController calls those taps. Issuance runs in a worker-thread pool shared by the
// signers; the CA files are read when the controller is built (cluster-cas.ts) and re-read when
// they change.
import { isControllerEnabled } from '../../core/controller/selection.js';
import { located, locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import type { Plugin } from '../../core/plugin.js';
import { SigningPool } from '../../core/signing-pool/pool.js';
import { signerTaps } from '../../core/signing.js';
import { ClusterCas } from './cluster-cas.js';
import { CLUSTER_SIGNER } from './cluster-signer-name.js';
import { caSigner } from './ca-signer.js';
import { onSigningControllerStart } from './signing-controller-start.js';
import { CONTROLLER_ALIASES, CONTROLLER_NAME } from './controller-plugin.js';
import { DURATION_FLAG, SIGNER_FLAGS, defineSigningFlags, signerFiles, signingFlagProblems } from './flags.js';

const PLUGIN_NAME = CLUSTER_SIGNER;

export const ClusterSigner: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    const log = host.logger.child(PLUGIN_NAME);
    let cas: ClusterCas | undefined;
    let pool: SigningPool | undefined;
    const signingPool = (): SigningPool => (pool ??= new SigningPool({ logger: log }));

    host.hooks.flags.tap(PLUGIN_NAME, defineSigningFlags);

    // CSRSigningControllerOptions.Validate, with the other plugins' options checks
    // (core/options-validation.ts). Values from the controller manager's --config file are named
    // with their field (exit 1).
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.controllers }, ({ flags }) => {
      const problem = locatedError(signingFlagProblems(flags).map((p) => located(flags, [p.message], p.flags)));
      if (problem) throw problem;
    });

    host.hooks.configure.tap(PLUGIN_NAME, ({ flags }) => {
      // Upstream's init function runs once the process leads: with csrsigning off it never runs,
      // and the files are neither read nor checked (the flag combination above is, as its
      // Validate does).
      if (flags.has('controllers') && !isControllerEnabled(CONTROLLER_NAME, false, flags.get<string[]>('controllers'), CONTROLLER_ALIASES)) return;
      const signers = signerFiles(flags);
      const files = new Map(signers.map(({ signer, files }) => [signer, files]));
      const maxTtlMs = flags.get<number>(DURATION_FLAG);
      const ownCas = new ClusterCas(files, log);
      cas = ownCas;
      for (const { signer } of signers) {
        host.hooks.sign.for(signer).tapPromise(PLUGIN_NAME, caSigner({ signer, provider: () => ownCas.forSigner(signer), maxTtlMs, pool: signingPool }));
      }
      onSigningControllerStart(host.hooks, (controllerLog) => {
        if (signers.length === 0) {
          controllerLog.info('Skipping CSR signer controller because no csr cert/key was specified');
          return;
        }
        // In upstream's order: each signer's CA read (the first bad one ends the process) or its skip said.
        for (const { signer } of SIGNER_FLAGS) {
          if (files.has(signer)) ownCas.forSigner(signer);
          else controllerLog.info('Skipping CSR signer controller because specific files were specified for other signers and not this one', { controller: signer });
        }
        // The workers start with the controller, not with a fresh cluster's first CSR, which would
        // wait for a thread, core/crypto's modules and the WASM compile: ~0.2 s on an idle 2-core
        // VM, 1-3 s at a load of 10.
        signingPool().start();
      });
    });

    // The cluster CA answers every CSR of its signers (a certificate, a Failed condition or an
    // error): a tap after its own (one made in a configure tap of a plugin applied later) is never
    // called, which its author cannot see otherwise.
    host.hooks.ready.tapPromise(PLUGIN_NAME, async () => {
      for (const signer of cas?.signers ?? []) {
        const taps = signerTaps(host.hooks.sign, signer);
        for (const later of taps.slice(taps.findIndex((t) => t.plugin === PLUGIN_NAME) + 1)) {
          if (later.plugin === PLUGIN_NAME) continue;
          const who = `plugin ${JSON.stringify(later.plugin)}${later.tap === undefined ? '' : ` (tap ${JSON.stringify(later.tap)})`}`;
          log.warn(`${who} taps hooks.sign.for(${JSON.stringify(signer)}) after the cluster CA, which answers every CSR of that signer: it is never called (tap in apply, or with { name, stage: -1 }, to come first)`);
        }
      }
    });
    host.hooks.shutdown.tapPromise(PLUGIN_NAME, async () => {
      cas?.stop();
      await pool?.close();
    });
  },
};
