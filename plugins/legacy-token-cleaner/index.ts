// LegacyServiceAccountTokenCleanerController: registers upstream's
// `legacy-serviceaccount-token-cleaner-controller` (alias `legacy-service-account-token-cleaner`, on
// by default) with the controller manager, with its flag
// --legacy-service-account-token-clean-up-period (8760h0m0s): auto-generated legacy tokens unused
// for that long are labelled invalid, and deleted once invalid for that long again. Its client and
// service account is `legacy-service-account-token-cleaner` (ClusterRole
// system:controller:legacy-service-account-token-cleaner). `legacyTokenCleanerController({ now })`
// runs it on another clock (tests).
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { DEFAULT_SYNC_INTERVAL_MS, legacyTokenCleaner } from './controller.js';

const PLUGIN_NAME = 'LegacyServiceAccountTokenCleanerController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'legacy-serviceaccount-token-cleaner-controller';
const CONTROLLER_ALIASES = ['legacy-service-account-token-cleaner'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const LEGACY_TOKEN_CLEANER_CLIENT = 'legacy-service-account-token-cleaner';
const PERIOD_FLAG = 'legacy-service-account-token-clean-up-period';
const PERIOD_DEFAULT_MS = 365 * 24 * 3_600_000;

function defineFlags(flags: FlagSet): void {
  // As the spec's catalogue has it (host/flag-catalogue/controller-manager.ts).
  flags.define({ name: PERIOD_FLAG, type: 'duration', default: PERIOD_DEFAULT_MS, section: 'Certificate signing', help: 'Time since last use before a legacy token may be deleted.' });
}

export function legacyTokenCleanerController(o: { now?: () => Date; cleanUpPeriodMs?: number; syncIntervalMs?: number } = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.flags.tap(PLUGIN_NAME, defineFlags);
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => legacyTokenCleaner(ctx, CONTROLLER_NAME, {
        cleanUpPeriodMs: o.cleanUpPeriodMs ?? (ctx.flags.has(PERIOD_FLAG) ? ctx.flags.get<number>(PERIOD_FLAG) : PERIOD_DEFAULT_MS),
        syncIntervalMs: o.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS,
        now: o.now ?? (() => new Date()),
      }), { enabledByDefault: true, clientName: LEGACY_TOKEN_CLEANER_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const LegacyServiceAccountTokenCleanerController: Plugin = legacyTokenCleanerController();

export { legacyTokenCleaner, type LegacyTokenCleanerOptions } from './controller.js';
