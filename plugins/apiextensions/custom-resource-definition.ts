// apiextensions.platform/v1 CustomResourceDefinition: get, list and watch only, so there is never
// one to see. The schema is upstream's outline (what `kubectl explain crd` shows); nested schemas
// and conversion settings are kept as they come, since nothing is ever stored.
import type { ApiObject } from '../../core/api/meta.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';
import type { JsonSchema, ResourceDefinition } from '../../core/registry/resource.js';

export const APIEXTENSIONS_GROUP = 'apiextensions.platform';
export const UPSTREAM_APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';

const DESCRIPTION = 'CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in the format <.spec.name>.<.spec.group>. plat serves no custom resources: this list is always empty.';
const str = (description: string): JsonSchema => ({ type: 'string', description });
const strings = (description: string): JsonSchema => ({ type: 'array', description, items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' });
const anything = (description: string): JsonSchema => ({ type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true });

const names: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.CustomResourceDefinitionNames', description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
  required: ['plural', 'kind'],
  properties: {
    plural: str('plural is the plural name of the resource to serve. Must be all lowercase.'),
    singular: str('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
    shortNames: strings('shortNames are short names for the resource, exposed in API discovery documents. It must be all lowercase.'),
    kind: str('kind is the serialized kind of the resource. It is normally CamelCase and singular.'),
    listKind: str('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    categories: strings('categories is a list of grouped resources this custom resource belongs to (e.g. \'all\').'),
  },
};

const schema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.CustomResourceDefinition', description: DESCRIPTION,
  required: ['spec'],
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object', 'x-go-type': 'v1.CustomResourceDefinitionSpec', description: 'spec describes how the user wants the resources to appear',
      required: ['group', 'names', 'scope', 'versions'],
      properties: {
        group: str('group is the API group of the defined custom resource.'),
        names,
        scope: str('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.'),
        versions: {
          type: 'array', description: 'versions is the list of all API versions of the defined custom resource.', 'x-kubernetes-list-type': 'atomic',
          items: {
            type: 'object', 'x-go-type': 'v1.CustomResourceDefinitionVersion', description: 'CustomResourceDefinitionVersion describes a version for CRD.',
            required: ['name', 'served', 'storage'],
            properties: {
              name: str('name is the version name, e.g. “v1”, “v2beta1”, etc.'),
              served: { type: 'boolean', description: 'served is a flag enabling/disabling this version from being served via REST APIs' },
              storage: { type: 'boolean', description: 'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.' },
              deprecated: { type: 'boolean', description: 'deprecated indicates this version of the custom resource API is deprecated.' },
              deprecationWarning: str('deprecationWarning overrides the default warning returned to API clients.'),
              schema: anything('schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.'),
              subresources: anything('subresources specify what subresources this version of the defined custom resource have.'),
              additionalPrinterColumns: { type: 'array', description: 'additionalPrinterColumns specifies additional columns returned in Table output.', items: anything('CustomResourceColumnDefinition specifies a column for server side printing.'), 'x-kubernetes-list-type': 'atomic' },
              selectableFields: { type: 'array', description: 'selectableFields specifies paths to fields that may be used as field selectors.', items: anything('SelectableField specifies the JSON path of a field that may be used with field selectors.'), 'x-kubernetes-list-type': 'atomic' },
            },
          },
        },
        conversion: anything('conversion defines conversion settings for the CRD.'),
        preserveUnknownFields: { type: 'boolean', description: 'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.' },
      },
    },
    status: {
      type: 'object', 'x-go-type': 'v1.CustomResourceDefinitionStatus', description: 'status indicates the actual state of the CustomResourceDefinition',
      properties: {
        conditions: { type: 'array', description: 'conditions indicate state for particular aspects of a CustomResourceDefinition', items: anything('CustomResourceDefinitionCondition contains details for the current condition of this pod.'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] },
        acceptedNames: { ...names, description: 'acceptedNames are the names that are actually being used to serve discovery.' },
        storedVersions: strings('storedVersions lists all versions of CustomResources that were ever persisted.'),
      },
    },
  },
};

export const customResourceDefinitionResource: ResourceDefinition<ApiObject> = {
  group: APIEXTENSIONS_GROUP, version: 'v1', wireGroup: UPSTREAM_APIEXTENSIONS_GROUP,
  kind: 'CustomResourceDefinition', listKind: 'CustomResourceDefinitionList', plural: 'customresourcedefinitions', singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'], categories: ['api-extensions'], scope: 'Cluster', schema, description: DESCRIPTION,
  verbs: ['get', 'list', 'watch'],
  // Nothing is ever written: every write verb is refused before a strategy would run.
  strategy: { validate: () => [], validateUpdate: () => [] },
  // Upstream's default table convertor.
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
    ],
    cells: (o) => [o.metadata.name ?? '', o.metadata.creationTimestamp ?? '0001-01-01T00:00:00Z'],
  },
};
