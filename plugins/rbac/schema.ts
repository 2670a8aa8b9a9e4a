// JSON schemas of the four RBAC kinds (OpenAPI v3 compatible; ajv type checks, unknown fields,
// `kubectl explain`), with k8s.io/api/rbac/v1's descriptions and list types.
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const strings = (description: string): JsonSchema =>
  ({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic', description });

export const policyRuleSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.PolicyRule',
  description: 'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  required: ['verbs'],
  properties: {
    verbs: strings("Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs."),
    apiGroups: strings('APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.'),
    resources: strings("Resources is a list of resources this rule applies to. '*' represents all resources."),
    resourceNames: strings('ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.'),
    nonResourceURLs: strings('NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.'),
  },
};

const rules = (owner: string): JsonSchema => ({
  type: 'array', items: policyRuleSchema, 'x-kubernetes-list-type': 'atomic', description: `Rules holds all the PolicyRules for this ${owner}`,
});

const labelSelectorSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.LabelSelector',
  'x-kubernetes-map-type': 'atomic',
  description: 'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
  properties: {
    matchLabels: { type: 'object', additionalProperties: { type: 'string' }, description: 'matchLabels is a map of {key,value} pairs.' },
    matchExpressions: {
      type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
      items: {
        type: 'object',
        'x-go-type': 'v1.LabelSelectorRequirement',
        required: ['key', 'operator'],
        description: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
        properties: {
          key: { type: 'string', description: 'key is the label key that the selector applies to.' },
          operator: { type: 'string', 'x-go-type': 'v1.LabelSelectorOperator', description: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." },
          values: strings('values is an array of string values.'),
        },
      },
    },
  },
};

export const ROLE_DESCRIPTION = 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.';
export const CLUSTER_ROLE_DESCRIPTION = 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.';
export const ROLE_BINDING_DESCRIPTION = 'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.';
export const CLUSTER_ROLE_BINDING_DESCRIPTION = 'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.';

export const roleSchema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.Role', description: ROLE_DESCRIPTION,
  properties: { ...typeMetaProperties, rules: rules('Role') },
};

export const clusterRoleSchema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.ClusterRole', description: CLUSTER_ROLE_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    rules: rules('ClusterRole'),
    aggregationRule: {
      type: 'object',
      'x-go-type': 'v1.AggregationRule',
      description: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.',
      properties: {
        clusterRoleSelectors: {
          type: 'array', items: labelSelectorSchema, 'x-kubernetes-list-type': 'atomic',
          description: "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
        },
      },
    },
  },
};

const subjectSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Subject',
  'x-kubernetes-map-type': 'atomic',
  required: ['kind', 'name'],
  description: 'Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.',
  properties: {
    kind: { type: 'string', description: 'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.' },
    apiGroup: { type: 'string', description: 'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.platform" for User and Group subjects.' },
    name: { type: 'string', description: 'Name of the object being referenced.' },
    namespace: { type: 'string', description: 'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.' },
  },
};

const roleRefSchema = (description: string): JsonSchema => ({
  type: 'object',
  'x-go-type': 'v1.RoleRef',
  'x-kubernetes-map-type': 'atomic',
  required: ['apiGroup', 'kind', 'name'],
  description,
  properties: {
    apiGroup: { type: 'string', description: 'APIGroup is the group for the resource being referenced' },
    kind: { type: 'string', description: 'Kind is the type of resource being referenced' },
    name: { type: 'string', description: 'Name is the name of resource being referenced' },
  },
});

const bindingSchema = (goType: string, description: string, roleRef: string): JsonSchema => ({
  type: 'object', 'x-go-type': goType, description, required: ['roleRef'],
  properties: {
    ...typeMetaProperties,
    subjects: { type: 'array', items: subjectSchema, 'x-kubernetes-list-type': 'atomic', description: 'Subjects holds references to the objects the role applies to.' },
    roleRef: roleRefSchema(roleRef),
  },
});

export const ROLE_BINDING_ROLE_REF = 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';
export const CLUSTER_ROLE_BINDING_ROLE_REF = 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';

export const roleBindingSchema = bindingSchema('v1.RoleBinding', ROLE_BINDING_DESCRIPTION, ROLE_BINDING_ROLE_REF);
export const clusterRoleBindingSchema = bindingSchema('v1.ClusterRoleBinding', CLUSTER_ROLE_BINDING_DESCRIPTION, CLUSTER_ROLE_BINDING_ROLE_REF);
