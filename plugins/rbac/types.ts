// rbac.authorization.platform/v1 objects (k8s.io/api/rbac/v1 with the group renamed).
import type { ApiObject } from '../../core/api/meta.js';

export type { AggregationRule, ClusterRole, PolicyRule, Role } from '../../core/api/rbac.js';

export const RBAC_GROUP = 'rbac.authorization.platform';
export const RBAC_VERSION = 'v1';

/** Upstream `rbac.authorization.kubernetes.io/autoupdate`: "false" keeps the bootstrap reconciler away. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.platform/autoupdate';
/** Upstream `kubernetes.io/bootstrapping: rbac-defaults`. */
export const BOOTSTRAPPING_LABEL = 'platform/bootstrapping';
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';
/** Upstream `rbac.authorization.k8s.io/aggregate-to-<role>`: "true" adds a ClusterRole's rules to the default role <role>. */
export const AGGREGATE_TO_LABEL_PREFIX = 'rbac.authorization.platform/aggregate-to-';

export const VERB_ALL = '*';
export const API_GROUP_ALL = '*';
export const RESOURCE_ALL = '*';
export const NON_RESOURCE_ALL = '*';

export const USER_KIND = 'User';
export const GROUP_KIND = 'Group';
export const SERVICE_ACCOUNT_KIND = 'ServiceAccount';

export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface RoleBinding extends ApiObject {
  subjects?: Subject[];
  roleRef?: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

/** The group this one renames: kubectl's typed clients (`kubectl create role`, ...) use it in paths and bodies. */
export const UPSTREAM_RBAC_GROUP = 'rbac.authorization.k8s.io';
