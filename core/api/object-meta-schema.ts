// JSON schema of meta/v1 ObjectMeta, shared by every resource schema (ajv validation, unknown-field
// detection and the OpenAPI document all read it). OpenAPI names it
// io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.
import type { JsonSchema } from '../registry/resource.js';

const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', nullable: true, description });

export const objectMetaSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.ObjectMeta',
  description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  // In ObjectMeta's declaration order, which objects are written in (go-order.ts).
  properties: {
    name: { type: 'string', description: 'Name must be unique within a namespace. Cannot be updated.' },
    generateName: { type: 'string', description: 'An optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.' },
    namespace: { type: 'string', description: 'Namespace defines the space within which each name must be unique.' },
    selfLink: { type: 'string', description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.' },
    uid: { type: 'string', 'x-go-type': 'types.UID', description: 'UID is the unique in time and space value for this object. Populated by the system. Read-only.' },
    resourceVersion: { type: 'string', description: 'An opaque value that represents the internal version of this object. Populated by the system. Read-only.' },
    generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' },
    creationTimestamp: time('CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.'),
    deletionTimestamp: time('DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system.'),
    deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.' },
    labels: { ...stringMap, description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.' },
    annotations: { ...stringMap, description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.' },
    ownerReferences: {
      type: 'array',
      description: 'List of objects depended by this object.',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      items: {
        type: 'object',
        'x-go-type': 'v1.OwnerReference',
        required: ['apiVersion', 'kind', 'name', 'uid'],
        properties: {
          apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' }, uid: { type: 'string', 'x-go-type': 'types.UID' },
          controller: { type: 'boolean' }, blockOwnerDeletion: { type: 'boolean' },
        },
      },
    },
    finalizers: {
      type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge',
      description: 'Must be empty before the object is deleted from the registry.',
    },
    managedFields: {
      type: 'array',
      description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
      items: {
        type: 'object',
        'x-go-type': 'v1.ManagedFieldsEntry',
        properties: {
          manager: { type: 'string' }, operation: { type: 'string', 'x-go-type': 'v1.ManagedFieldsOperationType' }, apiVersion: { type: 'string' },
          time: { type: 'string', format: 'date-time', nullable: true }, fieldsType: { type: 'string' },
          fieldsV1: { type: 'object', 'x-go-type': 'v1.FieldsV1', 'x-kubernetes-preserve-unknown-fields': true }, subresource: { type: 'string' },
        },
      },
    },
  },
};

/** Schema of apiVersion + kind + metadata, to spread into a resource's top-level properties. */
export const typeMetaProperties = {
  // TypeMeta declares Kind first: objects are written in the declaration order (go-order.ts).
  kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
  apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
  metadata: objectMetaSchema,
} satisfies Record<string, JsonSchema>;
