// NodesPlugin: serves core/v1 Node (cluster-scoped, short name `no`, subresource `status`), as
// upstream's pkg/registry/core/node serves it: strategy and validation, field selectors
// `metadata.name` and `spec.unschedulable`, kubectl's `get nodes` columns; and the read-only, empty
// Pods collection node clients look in (pods-view.ts). The node agents' `plat-node-lease`
// namespace is created with the other system namespaces (CoreResourcesPlugin).
import { nameIsDnsSubdomain } from '../../core/api/selectors/label-syntax.js';
import type { Host } from '../../core/host.js';
import type { Node } from '../../core/nodes/node-object.js';
import type { Plugin } from '../../core/plugin.js';
import type { ResourceDefinition } from '../../core/registry/resource.js';
import { NODE_DESCRIPTION, nodeSchema } from './schema.js';
import { nodeSelectableFields, nodeStatusStrategy, nodeStrategy } from './strategy.js';
import { podsViewResource } from './pods-view.js';
import { nodeTable } from './table.js';

const PLUGIN_NAME = 'NodesPlugin';

export const nodeResource: ResourceDefinition<Node> = {
  group: '', version: 'v1', kind: 'Node', listKind: 'NodeList', plural: 'nodes', singular: 'node', shortNames: ['no'],
  scope: 'Cluster', schema: nodeSchema, description: NODE_DESCRIPTION,
  strategy: nodeStrategy,
  subresources: [{ name: 'status', strategy: nodeStatusStrategy }],
  selectableFields: nodeSelectableFields,
  table: nodeTable,
  // ValidateNodeName is NameIsDNSSubdomain (a generateName prefix may end in '-').
  validateName: nameIsDnsSubdomain,
};

export const NodesPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      registry.register(nodeResource);
      registry.register(podsViewResource);
    });
  },
};

export { nodeRoles, nodeStatusText } from './table.js';
export { podsViewResource } from './pods-view.js';
export { validateNode, validateNodeUpdate } from './validation.js';
