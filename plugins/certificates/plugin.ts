// Registers the CertificateSigningRequest resource (certificates.platform/v1) with the API machinery.
import type { Plugin } from '../../core/plugin.js';
import { csrResource } from './resource.js';

const PLUGIN_NAME = 'CertificatesResourcePlugin';

export const CertificatesResourcePlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => registry.register(csrResource));
  },
};
