// The rbac/v1 PolicyRule and ClusterRole as they travel on the wire and sit in storage, shared by
// the plugin that serves them (plugins/rbac) and the aggregation controller, which reads and
// writes ClusterRoles through the API.
import type { ApiObject } from './meta.js';
import type { LabelSelectorObject } from './selectors/label-selector.js';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

export interface Role extends ApiObject {
  /** null when there are none: the v1 JSON form has no omitempty, and storage keeps no empty list. */
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule;
}
