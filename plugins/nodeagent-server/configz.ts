// /configz: the running configuration under the component's name, as component-base's configz
// handler reports what the node agent registers (`configz.New("kubeletconfig")`, renamed). Upstream
// converts the configuration to its versioned type without TypeMeta, so apiVersion and kind are not
// in the document; the rest is every field after defaulting, including fields plat only validates.
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';

export const CONFIGZ_NAME = 'nodeagentconfig';

export function configzDocument(config: Readonly<NodeAgentConfiguration>): Record<string, unknown> {
  const { apiVersion: _v, kind: _k, ...fields } = config;
  return { [CONFIGZ_NAME]: fields };
}
