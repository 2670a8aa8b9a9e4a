// TokenCleanerController: registers upstream's `token-cleaner-controller` (alias `tokencleaner`)
// with the controller manager, off by default as upstream's (`--controllers=*,tokencleaner` turns
// it on): expired bootstrap token Secrets in plat-system are deleted. Its client and service
// account is `token-cleaner`, bound in plat-system to the Role system:controller:token-cleaner.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { tokenCleaner, type TokenCleanerOptions } from './controller.js';

const PLUGIN_NAME = 'TokenCleanerController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'token-cleaner-controller';
const CONTROLLER_ALIASES = ['tokencleaner'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const TOKEN_CLEANER_CLIENT = 'token-cleaner';

/** The plugin on another clock (tests); `TokenCleanerController` is upstream's, on the real one. */
export function tokenCleanerController(options: Partial<TokenCleanerOptions> = {}): Plugin {
  const o: TokenCleanerOptions = { now: options.now ?? (() => new Date()) };
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME,
        (ctx) => tokenCleaner(ctx, CONTROLLER_NAME, o),
        { enabledByDefault: false, clientName: TOKEN_CLEANER_CLIENT, aliases: CONTROLLER_ALIASES }));
    },
  };
}

export const TokenCleanerController: Plugin = tokenCleanerController();

export { tokenCleaner, type TokenCleanerOptions } from './controller.js';
