// ServiceAccountController: registers upstream's `serviceaccount-controller` (alias
// `serviceaccount`, on by default) with the controller manager: every Active namespace gets its
// `default` ServiceAccount, made again when deleted. Upstream's client and service account name
// for it is `service-account-controller` (role system:controller:service-account-controller).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { serviceAccountsController, SERVICE_ACCOUNTS_TO_ENSURE } from './controller.js';

const PLUGIN_NAME = 'ServiceAccountController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'serviceaccount-controller';
const CONTROLLER_ALIASES = ['serviceaccount'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const SERVICE_ACCOUNT_CONTROLLER_CLIENT = 'service-account-controller';

export const ServiceAccountController: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME,
      (ctx) => serviceAccountsController(ctx, CONTROLLER_NAME, { serviceAccounts: SERVICE_ACCOUNTS_TO_ENSURE, workers: 1 }),
      { enabledByDefault: true, clientName: SERVICE_ACCOUNT_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
  },
};

export { serviceAccountsController, SERVICE_ACCOUNTS_TO_ENSURE, type ServiceAccountsControllerOptions } from './controller.js';
