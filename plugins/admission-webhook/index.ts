// AdmissionWebhookPlugin: the admissionregistration.platform/v1 ValidatingWebhookConfiguration and
// MutatingWebhookConfiguration resources, and the two admission plugins that call the webhooks
// they configure: MutatingAdmissionWebhook (admitMutate) and ValidatingAdmissionWebhook
// (admitValidate), each at its place in upstream's plugin order and only when enabled.
import { ADMISSION_PLUGIN_KIND, admissionPluginConfig, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { AgentPool } from './client.js';
import { dispatchContext } from './context.js';
import { dispatchMutating } from './mutating.js';
import { mutatingWebhookConfigurationResource, validatingWebhookConfigurationResource } from './resources.js';
import { isExemptAdmissionConfigurationResource } from './rules.js';
import { WebhookSource } from './source.js';
import { dispatchValidating } from './validating.js';

const PLUGIN_NAME = 'AdmissionWebhookPlugin';
export const VALIDATING_ADMISSION_WEBHOOK = 'ValidatingAdmissionWebhook';
export const MUTATING_ADMISSION_WEBHOOK = 'MutatingAdmissionWebhook';

export const AdmissionWebhookPlugin: Plugin = {
  name: PLUGIN_NAME,
  calls: ['authorize'],
  apply(host: Host): void {
    const agents = new AgentPool();
    const logger = host.logger.child(PLUGIN_NAME);
    const sources: WebhookSource[] = [];

    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      registry.register(validatingWebhookConfigurationResource);
      registry.register(mutatingWebhookConfigurationResource);
    });

    host.capabilities.provide(ADMISSION_PLUGIN_KIND, MUTATING_ADMISSION_WEBHOOK, PLUGIN_NAME);
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, VALIDATING_ADMISSION_WEBHOOK, PLUGIN_NAME);

    host.hooks.configure.tap(PLUGIN_NAME, () => {
      for (const name of [MUTATING_ADMISSION_WEBHOOK, VALIDATING_ADMISSION_WEBHOOK]) {
        // Upstream's WebhookAdmissionConfiguration (kubeConfigFile: per-webhook client credentials)
        // is not implemented; refusing it beats calling webhooks without the credentials it names.
        if (admissionPluginConfig(host, name) !== undefined) {
          throw new StartupError(`--admission-control-config-file: configuration of ${name} (WebhookAdmissionConfiguration) is not supported by plat`);
        }
      }
      if (isAdmissionPluginEnabled(host, MUTATING_ADMISSION_WEBHOOK)) {
        const source = new WebhookSource(host, mutatingWebhookConfigurationResource.plural, true);
        sources.push(source);
        host.hooks.admitMutate.tapPromise({ name: MUTATING_ADMISSION_WEBHOOK, stage: admissionStage(MUTATING_ADMISSION_WEBHOOK) }, async (req: AdmissionRequest) => {
          if (isExemptAdmissionConfigurationResource(req)) return;
          const hooks = await source.webhooks();
          if (hooks.length) await dispatchMutating(hooks, req, dispatchContext(host, req, logger, agents));
        });
      }
      if (isAdmissionPluginEnabled(host, VALIDATING_ADMISSION_WEBHOOK)) {
        const source = new WebhookSource(host, validatingWebhookConfigurationResource.plural, false);
        sources.push(source);
        host.hooks.admitValidate.tapPromise({ name: VALIDATING_ADMISSION_WEBHOOK, stage: admissionStage(VALIDATING_ADMISSION_WEBHOOK) }, async (req: AdmissionRequest) => {
          if (isExemptAdmissionConfigurationResource(req)) return;
          const hooks = await source.webhooks();
          if (hooks.length) await dispatchValidating(hooks, req, dispatchContext(host, req, logger, agents));
        });
      }
    });

    host.hooks.shutdown.tapPromise(PLUGIN_NAME, async () => { for (const s of sources) s.close(); agents.close(); });
  },
};
