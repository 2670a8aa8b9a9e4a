// ClusterRoleAggregationController: registers upstream's `clusterrole-aggregation-controller`
// (alias `clusterrole-aggregation`, on by default, five workers) with the controller manager: a
// ClusterRole with an aggregationRule (the bootstrap `admin`, `edit`, `view`) gets the rules of
// the ClusterRoles its selectors match. Upstream's client and service account name for it is
// `clusterrole-aggregation-controller` (role system:controller:clusterrole-aggregation-controller).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { clusterRoleAggregationController } from './controller.js';

const PLUGIN_NAME = 'ClusterRoleAggregationController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'clusterrole-aggregation-controller';
const CONTROLLER_ALIASES = ['clusterrole-aggregation'];
/** Its client and, under --use-service-account-credentials, service account (upstream's ClientOrDie name). */
export const CLUSTERROLE_AGGREGATION_CONTROLLER_CLIENT = 'clusterrole-aggregation-controller';
const WORKERS = 5;

export const ClusterRoleAggregationController: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME,
      (ctx) => clusterRoleAggregationController(ctx, CONTROLLER_NAME, { workers: WORKERS }),
      { enabledByDefault: true, clientName: CLUSTERROLE_AGGREGATION_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES }));
  },
};

export { aggregatedRules, clusterRoleAggregationController, FIELD_MANAGER, type ClusterRoleAggregationOptions } from './controller.js';
