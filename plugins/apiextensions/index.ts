// ApiExtensionsPlugin: serves apiextensions.platform/v1 CustomResourceDefinitions, read-only and
// always empty (plat serves no custom resources), under its upstream group too. kubectl needs the
// list: when neither /openapi/v3 nor /openapi/v2 gives a kind a PATCH with fieldValidation (the
// create-only reviews), cli-runtime's QueryParamVerifier lists apiextensions.k8s.io/v1
// customresourcedefinitions to learn whether the kind is a CRD before it validates on the client,
// and a 404 there fails `kubectl create -f` with `failed to check CRD: failed to list CRDs`.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { customResourceDefinitionResource } from './custom-resource-definition.js';

const PLUGIN_NAME = 'ApiExtensionsPlugin';

export const ApiExtensionsPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => registry.register(customResourceDefinitionResource));
  },
};

export { customResourceDefinitionResource } from './custom-resource-definition.js';
