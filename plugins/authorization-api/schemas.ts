// JSON schemas of the access reviews (authorization.platform/v1): SubjectAccessReview,
// SelfSubjectAccessReview, LocalSubjectAccessReview.
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const strings: JsonSchema = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' };
const str = (description: string): JsonSchema => ({ type: 'string', description });

/** metav1's FieldSelectorRequirement or LabelSelectorRequirement (`of` is Field or Label). */
const selectorRequirements = (of: string): JsonSchema => ({
  type: 'array', 'x-kubernetes-list-type': 'atomic',
  items: {
    type: 'object',
    'x-go-type': `v1.${of}SelectorRequirement`,
    properties: {
      key: str('key is the field selector key that the requirement applies to.'),
      operator: { ...str('operator represents a key\'s relationship to a set of values.'), 'x-go-type': `v1.${of}SelectorOperator` },
      values: strings,
    },
  },
});
const selectorAttributes = (of: string, description: string): JsonSchema => ({
  type: 'object', 'x-go-type': `v1.${of}SelectorAttributes`,
  properties: { rawSelector: str(description), requirements: selectorRequirements(of) },
});

const resourceAttributes: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.ResourceAttributes',
  description: 'ResourceAttributes describes information for a resource access request',
  properties: {
    namespace: str('Namespace is the namespace of the action being requested.'),
    verb: str('Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.'),
    group: str('Group is the API Group of the Resource.  "*" means all.'),
    version: str('Version is the API Version of the Resource.  "*" means all.'),
    resource: str('Resource is one of the existing resource types.  "*" means all.'),
    subresource: str('Subresource is one of the existing resource types.  "" means none.'),
    name: str('Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.'),
    fieldSelector: selectorAttributes('Field', 'rawSelector is the serialization of a field selector.'),
    labelSelector: selectorAttributes('Label', 'rawSelector is the serialization of a label selector.'),
  },
};

const nonResourceAttributes: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.NonResourceAttributes',
  description: 'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface',
  properties: { path: str('Path is the URL path of the request'), verb: str('Verb is the standard HTTP verb') },
};

const status: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.SubjectAccessReviewStatus',
  description: 'Status is filled in by the server and indicates whether the request is allowed or not',
  properties: {
    allowed: { type: 'boolean', description: 'Allowed is required. True if the action would be allowed, false otherwise.' },
    denied: { type: 'boolean', description: 'Denied is optional. True if the action would be denied, otherwise false.' },
    reason: str('Reason is optional.  It indicates why a request was allowed or denied.'),
    evaluationError: str('EvaluationError is an indication that some error occurred during the authorization check.'),
  },
};

const review = (goType: string, description: string, spec: JsonSchema): JsonSchema => ({
  type: 'object', 'x-go-type': goType, description, required: ['spec'], properties: { ...typeMetaProperties, spec, status },
});

export const subjectAccessReviewSchema = review('v1.SubjectAccessReview', 'SubjectAccessReview checks whether or not a user or group can perform an action.', {
  type: 'object',
  'x-go-type': 'v1.SubjectAccessReviewSpec',
  description: 'Spec holds information about the request being evaluated',
  properties: {
    resourceAttributes, nonResourceAttributes,
    user: str('User is the user you\'re testing for.'),
    groups: { ...strings, description: 'Groups is the groups you\'re testing for.' },
    extra: { type: 'object', additionalProperties: { ...strings, 'x-go-type': 'v1.ExtraValue' }, description: 'Extra corresponds to the user.Info.GetExtra() method from the authenticator.' },
    uid: str('UID information about the requesting user.'),
  },
});

export const selfSubjectAccessReviewSchema = review('v1.SelfSubjectAccessReview', 'SelfSubjectAccessReview checks whether or the current user can perform an action.', {
  type: 'object',
  'x-go-type': 'v1.SelfSubjectAccessReviewSpec',
  description: 'Spec holds information about the request being evaluated.  user and groups must be empty',
  properties: { resourceAttributes, nonResourceAttributes },
});

export const localSubjectAccessReviewSchema = review('v1.LocalSubjectAccessReview', 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace.', subjectAccessReviewSchema.properties!['spec']!);
