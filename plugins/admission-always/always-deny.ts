// AlwaysDeny: refuses every write in both phases, with upstream's message. Being mutating too, it
// refuses before validation (an invalid object gets 403, not 422) and, having the last place in
// upstream's order, after every other mutating plugin. Deprecated upstream; it warns when enabled.
import { ADMISSION_PLUGIN_KIND, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';

const PLUGIN_NAME = 'AlwaysDenyAdmission';
const NAME = 'AlwaysDeny';

const deny = async (): Promise<void> => {
  // A plain Error: the store turns it into admission.NewForbidden's 403 naming the object.
  throw new Error('admission control is denying all modifications');
};

export const AlwaysDenyAdmission: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, NAME, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, () => {
      if (!isAdmissionPluginEnabled(host, NAME)) return;
      host.logger.child(PLUGIN_NAME).warn(`${NAME} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
      const stage = admissionStage(NAME);
      host.hooks.admitMutate.tapPromise({ name: PLUGIN_NAME, stage }, deny);
      host.hooks.admitValidate.tapPromise({ name: PLUGIN_NAME, stage }, deny);
    });
  },
};
