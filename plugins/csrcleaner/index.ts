// CsrCleanerController: registers the `certificatesigningrequest-cleaner-controller` (`csrcleaner`) controller (on by default) with the controller
// manager. `csrCleanerController({ intervalMs, now })` makes one with another sweep interval or
// clock (tests); the plugin itself is upstream's: every hour, on the real clock.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { CERTIFICATE_CONTROLLER_CLIENT } from '../../core/certificates/certificate-controller.js';
import { csrCleaner, type CleanerOptions } from './cleaner.js';

const PLUGIN_NAME = 'CsrCleanerController';
/** The controller's name upstream (kube-controller-manager's health checks, logger and --help name it so). */
export const CONTROLLER_NAME = 'certificatesigningrequest-cleaner-controller';
/** Its short name from before upstream named controllers so, which --controllers takes too (the spec's). */
const CONTROLLER_ALIASES = ['csrcleaner'];
export const POLLING_INTERVAL_MS = 3600_000;

export function csrCleanerController(options: Partial<CleanerOptions> = {}): Plugin {
  const o: CleanerOptions = { intervalMs: options.intervalMs ?? POLLING_INTERVAL_MS, now: options.now ?? (() => new Date()) };
  if (!(o.intervalMs > 0)) throw new RangeError(`${PLUGIN_NAME}: intervalMs must be positive (got ${o.intervalMs})`);
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => csrCleaner(ctx, o), { enabledByDefault: true, clientName: CERTIFICATE_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const CsrCleanerController: Plugin = csrCleanerController();

export { cleanupReason, firstCertificateNotAfter, isExpired, isOlderThan, type CleanupReason } from './cleanup-rules.js';
export { csrCleaner, type CleanerOptions } from './cleaner.js';
