// AlwaysAdmit: admits everything, which is what an empty admission chain does anyway; upstream
// keeps the name only for old flag sets and warns when it is enabled. It taps no phase.
import { ADMISSION_PLUGIN_KIND, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';

const PLUGIN_NAME = 'AlwaysAdmitAdmission';
const NAME = 'AlwaysAdmit';

export const AlwaysAdmitAdmission: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, NAME, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, () => {
      if (!isAdmissionPluginEnabled(host, NAME)) return;
      host.logger.child(PLUGIN_NAME).warn(`${NAME} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
    });
  },
};
