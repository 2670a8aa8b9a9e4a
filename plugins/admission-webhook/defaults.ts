// admissionregistration/v1 defaulting (SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook,
// SetDefaults_Rule, SetDefaults_ServiceReference). Upstream defaults at decode time; here the
// strategies call it before validation, so stored objects and answers carry the same defaults.
// sideEffects and admissionReviewVersions have no default in v1: they are required.
import type { WebhookConfiguration } from './types.js';

export function applyDefaults(obj: WebhookConfiguration, mutating: boolean): void {
  if (!Array.isArray(obj.webhooks)) return;
  for (const hook of obj.webhooks) {
    if (typeof hook !== 'object' || hook === null) continue;
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    for (const rule of hook.rules ?? []) {
      if (typeof rule === 'object' && rule !== null) rule.scope ??= '*';
    }
    const service = hook.clientConfig?.service;
    if (service && typeof service === 'object') service.port ??= 443;
  }
}
