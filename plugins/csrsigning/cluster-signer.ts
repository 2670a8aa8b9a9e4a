// ClusterSigner: the controller manager's own CA for the four well-known signers
// (--cluster-signing-* flags). For each signer with a CA pair it taps hooks.sign.for(signer);
// the CsrSigningController calls those taps. Issuance runs in a worker-thread pool shared by the
// signers; the CA files are re-read when they change.
import { isControllerEnabled } from '../../core/controller/selection.js';
import { located, locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { SigningPool } from '../../core/signing-pool/pool.js';
import { signerPlugins } from '../../core/signing.js';
import { CaProvider } from './ca-provider.js';
import { CLUSTER_SIGNER } from './cluster-signer-name.js';
import { caSigner } from './ca-signer.js';
import { onSigningControllerStart } from './signing-controller-start.js';
import { CONTROLLER_ALIASES, CONTROLLER_NAME } from './controller-plugin.js';
import { DURATION_FLAG, defineSigningFlags, signerFiles, signingFlagProblems } from './flags.js';

const PLUGIN_NAME = CLUSTER_SIGNER;

export const ClusterSigner: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    const log = host.logger.child(PLUGIN_NAME);
    let providers: CaProvider[] = [];
    const served: string[] = [];
    // Upstream's CA loader of each signer's controller, by DynamicCertKeyPairContent's name.
    const loaders: string[] = [];
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
      // Upstream reads the files in the controller's start function: with csrsigning off they are
      // neither read nor checked (the flag combination above is, as its Validate does).
      if (flags.has('controllers') && !isControllerEnabled(CONTROLLER_NAME, false, flags.get<string[]>('controllers'), CONTROLLER_ALIASES)) return;
      const { signers, skipped } = signerFiles(flags);
      onSigningControllerStart(host.hooks, (controllerLog) => {
        if (signers.length === 0) {
          controllerLog.info('Skipping CSR signer controller because no csr cert/key was specified');
          return;
        }
        for (const signer of skipped) {
          controllerLog.info('Skipping CSR signer controller because specific files were specified for other signers and not this one', { controller: signer });
        }
      });
      if (signers.length === 0) return;
      const maxTtlMs = flags.get<number>(DURATION_FLAG);
      const byFiles = new Map<string, CaProvider>();
      for (const { signer, files } of signers) {
        const key = `${files.certFile}\0${files.keyFile}`;
        let provider = byFiles.get(key);
        if (!provider) {
          try {
            provider = new CaProvider(files.certFile, files.keyFile, log);
          } catch (e) {
            throw new StartupError(`failed to start ${signer} certificate controller: ${(e as Error).message}`, 1);
          }
          byFiles.set(key, provider);
        }
        served.push(signer);
        loaders.push(provider.name);
        host.hooks.sign.for(signer).tapPromise(PLUGIN_NAME, caSigner({ signer, provider, maxTtlMs, pool: signingPool }));
        log.info('signing with the cluster CA', { signer, certFile: files.certFile, notAfter: provider.current().certificate.notAfter.toISOString() });
      }
      providers = [...byFiles.values()];
      // The workers start with the controller, not with a fresh cluster's first CSR, which would
      // wait for a thread, core/crypto's modules and the WASM compile: ~0.2 s on an idle 2-core VM,
      // 1-3 s at a load of 10.
      onSigningControllerStart(host.hooks, () => signingPool().start());
    });

    host.hooks.start.tapPromise(PLUGIN_NAME, async () => {
      for (const p of providers) p.start();
      for (const name of loaders) log.info('Starting controller', { name });
    });
    // The cluster CA answers every CSR of its signers (a certificate, a Failed condition or an
    // error): a tap after its own (one made in a configure tap of a plugin applied later) is never
    // called, which its author cannot see otherwise.
    host.hooks.ready.tapPromise(PLUGIN_NAME, async () => {
      for (const signer of served) {
        const plugins = signerPlugins(host.hooks.sign, signer);
        for (const later of plugins.slice(plugins.indexOf(PLUGIN_NAME) + 1)) {
          log.warn(`plugin ${JSON.stringify(later)} taps hooks.sign.for(${JSON.stringify(signer)}) after the cluster CA, which answers every CSR of that signer: it is never called (tap in apply, or with { name, stage: -1 }, to come first)`);
        }
      }
    });
    host.hooks.shutdown.tapPromise(PLUGIN_NAME, async () => {
      for (const p of providers) p.stop();
      for (const name of loaders) log.info('Shutting down controller', { name });
      await pool?.close();
    });
  },
};
