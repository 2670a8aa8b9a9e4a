// The shape the three certificate admission plugins share: provide the admission plugin name at
// apply (so the admission flags can name it), and tap the phase only when the flags enable it, at
// the name's place in upstream's order.
import { ADMISSION_PLUGIN_KIND, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Host } from '../../core/host.js';
import type { Logger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';

export interface AdmissionPluginSpec {
  /** The admission plugin name of the flags (CertificateApproval). */
  readonly admissionName: string;
  /** The plat plugin name (CertificateApprovalAdmission). */
  readonly pluginName: string;
  readonly phase: 'admitMutate' | 'admitValidate';
  readonly admit: (req: AdmissionRequest, log: Logger) => Promise<void>;
}

export function admissionPlugin(spec: AdmissionPluginSpec): Plugin {
  return {
    name: spec.pluginName,
    apply(host: Host): void {
      host.capabilities.provide(ADMISSION_PLUGIN_KIND, spec.admissionName, spec.pluginName);
      host.hooks.configure.tap(spec.pluginName, () => {
        if (!isAdmissionPluginEnabled(host, spec.admissionName)) return;
        const log = host.logger.child(spec.pluginName);
        host.hooks[spec.phase].tapPromise({ name: spec.pluginName, stage: admissionStage(spec.admissionName) }, (req) => spec.admit(req, log));
      });
    },
  };
}
