// core/v1 ServiceAccount: an identity for processes, named by `system:serviceaccount:<ns>:<name>`.
// Stored as upstream stores it (secrets, imagePullSecrets, automountServiceAccountToken); its
// `token` subresource (TokenRequest) is attached by the plugin, which owns the token issuer.
import type { ApiObject } from '../../core/api/meta.js';
import { fields, objectMeta, str, eachField } from '../../core/api/protobuf.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { age } from '../../core/api/human-duration.js';
import { nameIsDnsSubdomain } from '../../core/api/selectors/label-syntax.js';
import type { JsonSchema, ResourceDefinition, TableColumn } from '../../core/registry/resource.js';
import type { Strategy, SubresourceDefinition } from '../../core/registry/strategy.js';
import { coreFinalizerErrors } from '../../core/registry/core-finalizers.js';

export interface ObjectReference {
  kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string; fieldPath?: string;
}

export interface ServiceAccount extends ApiObject {
  secrets?: ObjectReference[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

const DESCRIPTION = 'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets';

const objectReferenceSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.ObjectReference',
  description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
  properties: Object.fromEntries(['apiVersion', 'fieldPath', 'kind', 'name', 'namespace', 'resourceVersion', 'uid']
    .map((k) => [k, k === 'uid' ? { type: 'string', 'x-go-type': 'types.UID' } : { type: 'string' }])),
  'x-kubernetes-map-type': 'atomic',
};

const schema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.ServiceAccount',
  description: DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    secrets: {
      type: 'array', items: objectReferenceSchema,
      'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge',
      description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
    },
    imagePullSecrets: {
      type: 'array',
      items: { type: 'object', 'x-go-type': 'v1.LocalObjectReference', properties: { name: { type: 'string', default: '' } }, 'x-kubernetes-map-type': 'atomic' },
      'x-kubernetes-list-type': 'atomic',
      description: 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.',
    },
    automountServiceAccountToken: {
      type: 'boolean',
      description: 'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.',
    },
  },
};

/** cleanSecretReferences: a reference to one of the account's Secrets keeps only its name. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((s) => (s.name ? { name: s.name } : {}));
}

/**
 * Upstream validates nothing of a ServiceAccount but its metadata (the core finalizer rule here, the
 * rest in the store); an update runs it twice, in ValidateObjectMetaUpdate and ValidateServiceAccount.
 */
const strategy: Strategy<ServiceAccount> = {
  prepareForCreate: (_ctx, sa) => cleanSecretReferences(sa),
  validate: (_ctx, sa) => coreFinalizerErrors(sa.metadata),
  prepareForUpdate: (_ctx, sa) => cleanSecretReferences(sa),
  validateUpdate: (_ctx, sa) => [...coreFinalizerErrors(sa.metadata), ...coreFinalizerErrors(sa.metadata)],
};

const column = (name: string, type: TableColumn['type'], description: string, format = ''): TableColumn =>
  ({ name, type, format, description, priority: 0 });

function objectReference(raw: Buffer): ObjectReference {
  const names = ['', 'kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;
  const ref: Record<string, string> = {};
  for (const f of eachField(raw)) {
    const key = names[f.no];
    if (key) ref[key] = str(f);
  }
  return ref;
}

export function serviceAccountResource(subresources: readonly SubresourceDefinition<ServiceAccount>[]): ResourceDefinition<ServiceAccount> {
  return {
    group: '', version: 'v1', kind: 'ServiceAccount', listKind: 'ServiceAccountList', plural: 'serviceaccounts', singular: 'serviceaccount',
    shortNames: ['sa'], scope: 'Namespaced', schema, description: DESCRIPTION, strategy, subresources,
    // core/v1 registers field-label conversions for other kinds, not this one.
    defaultFieldLabelConversion: true,
    // As upstream's serviceaccount storage: a DELETE answers with the ServiceAccount, not a Status.
    returnDeletedObject: true,
    table: {
      columns: [
        column('Name', 'string', 'Name must be unique within a namespace.', 'name'),
        column('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'),
        column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
      ],
      cells: (obj, now) => [obj.metadata.name ?? '', obj.secrets?.length ?? 0, age(obj.metadata.creationTimestamp, now)],
    },
    validateName: nameIsDnsSubdomain,
    decodeProtobuf(raw) {
      const obj: ServiceAccount = { metadata: {} };
      for (const f of eachField(raw)) {
        if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
        else if (f.no === 2) (obj.secrets ??= []).push(objectReference(f.bytes!));
        else if (f.no === 3) (obj.imagePullSecrets ??= []).push({ name: fields(f.bytes!).filter((x) => x.no === 1).map(str)[0] ?? '' });
        else if (f.no === 4) obj.automountServiceAccountToken = f.varint !== 0n;
      }
      return obj;
    },
  };
}
