// `plat controller-manager`: its endpoint, its API connection and leader election, then the controllers.
import type { Profile } from '../../core/boot.js';
import { ControllerManagerPlugin } from '../../plugins/controller-manager/index.js';
import { ControllerManagerServing } from '../../plugins/controller-manager-serving/index.js';
import { controllerManagerFlagCatalogue } from '../flag-catalogue/controller-manager.js';
import { prepareControllerManager } from '../roles/controller-manager.js';
import { controllerManagerPlugins } from './controllers.js';

export const controllerManagerProfile: Profile = {
  role: 'controller-manager',
  description: 'The controller manager runs the control loops of the certificates.platform API (signing, approving, cleaning) against the API server.',
  plugins: [ControllerManagerServing, ControllerManagerPlugin, ...controllerManagerPlugins],
  catalogue: controllerManagerFlagCatalogue,
  prepare: prepareControllerManager,
};
