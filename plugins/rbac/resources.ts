// The four rbac.authorization.platform/v1 resources as the API machinery serves them: upstream's
// strategies (pkg/registry/rbac/*/strategy.go) are validation plus v1 defaulting; nothing is
// server-set beyond ObjectMeta.
import type { ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { bindingFromUpstreamGroup, bindingToUpstreamGroup, defaultBinding, normalizeRules } from './defaults.js';
import { decodeBinding, decodeRole } from './protobuf.js';
import {
  CLUSTER_ROLE_BINDING_DESCRIPTION, CLUSTER_ROLE_DESCRIPTION, ROLE_BINDING_DESCRIPTION, ROLE_DESCRIPTION,
  clusterRoleBindingSchema, clusterRoleSchema, roleBindingSchema, roleSchema,
} from './schema.js';
import { clusterRoleBindingTable, roleBindingTable, roleTable } from './table.js';
import { RBAC_GROUP, RBAC_VERSION, UPSTREAM_RBAC_GROUP, type ClusterRole, type Role, type RoleBinding } from './types.js';
import { validateBinding, validateBindingUpdate, validateClusterRole, validateRole } from './validation.js';

const roleStrategy: Strategy<Role> = {
  validate: (_ctx, obj) => validateRole(obj),
  validateUpdate: (_ctx, obj) => validateRole(obj),
};

const clusterRoleStrategy: Strategy<ClusterRole> = {
  validate: (_ctx, obj) => validateClusterRole(obj),
  validateUpdate: (_ctx, obj) => validateClusterRole(obj),
};

const bindingStrategy = (namespaced: boolean): Strategy<RoleBinding> => ({
  validate: (_ctx, obj) => validateBinding(obj, namespaced),
  validateUpdate: (_ctx, obj, old) => validateBindingUpdate(obj, old, namespaced),
});

// rbac/v1 registers no field-label conversion.
const common = {
  group: RBAC_GROUP, version: RBAC_VERSION, wireGroup: UPSTREAM_RBAC_GROUP, allowCreateOnUpdate: true, defaultFieldLabelConversion: true,
} as const;

export const roleResource: ResourceDefinition<Role> = {
  ...common, kind: 'Role', listKind: 'RoleList', plural: 'roles', singular: 'role', scope: 'Namespaced',
  schema: roleSchema, description: ROLE_DESCRIPTION, strategy: roleStrategy, defaults: normalizeRules, table: roleTable, decodeProtobuf: decodeRole,
};

export const clusterRoleResource: ResourceDefinition<ClusterRole> = {
  ...common, kind: 'ClusterRole', listKind: 'ClusterRoleList', plural: 'clusterroles', singular: 'clusterrole', scope: 'Cluster',
  schema: clusterRoleSchema, description: CLUSTER_ROLE_DESCRIPTION, strategy: clusterRoleStrategy, defaults: normalizeRules, table: roleTable, decodeProtobuf: decodeRole,
};

export const roleBindingResource: ResourceDefinition<RoleBinding> = {
  ...common, kind: 'RoleBinding', listKind: 'RoleBindingList', plural: 'rolebindings', singular: 'rolebinding', scope: 'Namespaced',
  schema: roleBindingSchema, description: ROLE_BINDING_DESCRIPTION, strategy: bindingStrategy(true), defaults: defaultBinding, table: roleBindingTable,
  decodeProtobuf: decodeBinding, fromWireGroup: bindingFromUpstreamGroup, toWireGroup: bindingToUpstreamGroup,
};

export const clusterRoleBindingResource: ResourceDefinition<RoleBinding> = {
  ...common, kind: 'ClusterRoleBinding', listKind: 'ClusterRoleBindingList', plural: 'clusterrolebindings', singular: 'clusterrolebinding',
  scope: 'Cluster', schema: clusterRoleBindingSchema, description: CLUSTER_ROLE_BINDING_DESCRIPTION, strategy: bindingStrategy(false), defaults: defaultBinding,
  table: clusterRoleBindingTable, decodeProtobuf: decodeBinding, fromWireGroup: bindingFromUpstreamGroup, toWireGroup: bindingToUpstreamGroup,
};

export const rbacResources = [roleResource, roleBindingResource, clusterRoleResource, clusterRoleBindingResource] as const;
