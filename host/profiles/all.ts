// `plat all`: the API server's plugins and the controllers in one process, under --data-dir.
import type { Profile } from '../../core/boot.js';
import { EmbeddedControllerManagerPlugin } from '../../plugins/controller-manager/index.js';
import { APISERVER_FLAG_SECTIONS, apiserverFlagCatalogue } from '../flag-catalogue/apiserver.js';
import { CONTROLLER_MANAGER_FLAG_SECTIONS, embeddedControllerManagerFlagCatalogue } from '../flag-catalogue/controller-manager.js';
import { ALL_IN_ONE_HELP_DEFAULTS, prepareAllInOne, settleAllInOne } from '../roles/all.js';
import { apiserverPlugins } from './apiserver.js';
import { controllerManagerPlugins } from './controllers.js';

export const allInOneProfile: Profile = {
  role: 'all',
  description: 'All of plat in one process (the API server and the controller manager), everything under --data-dir: a CA, an admin kubeconfig and the store.',
  plugins: [...apiserverPlugins, EmbeddedControllerManagerPlugin, ...controllerManagerPlugins],
  catalogue: [...apiserverFlagCatalogue, ...embeddedControllerManagerFlagCatalogue],
  // The controller manager's own endpoint is not here; its client flags that remain are.
  helpSections: [...APISERVER_FLAG_SECTIONS, ...CONTROLLER_MANAGER_FLAG_SECTIONS.slice(1)],
  covers: ['apiserver', 'controller-manager'],
  // One machine, one user: listen on loopback only and require credentials, since the only
  // authorizer here allows everything. One controller manager, so no leader election.
  defaults: { 'bind-address': '127.0.0.1', 'anonymous-auth': false, 'leader-elect': false },
  helpDefaults: ALL_IN_ONE_HELP_DEFAULTS,
  settle: settleAllInOne,
  prepare: prepareAllInOne,
};
