// core/v1 Namespace (cluster-scoped) and Secret (namespaced), as upstream's core registry serves
// them: Namespace status.phase Active on create and Terminating from the first delete on (which
// only marks it), spec.finalizers holding `platform` from create on and kept on update, changed
// only through the finalize subresource, the namespace deleted once both its spec and metadata
// finalizers are empty, label platform/metadata.name always its name, names DNS-1123 labels, a status
// subresource; Secret `stringData` merged into `data` and never stored, `type` defaulted to Opaque
// and immutable, per-type rules (secret-types.ts), `immutable` honoured.
import { errors, type StatusError } from '../../core/api/errors.js';
import type { DeleteOptionsFields } from '../../core/admission/options.js';
import { appendErrors, fieldError, isFull, validateEach, type FieldError } from '../../core/api/field-errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { Namespace } from '../../core/api/namespace.js';
import { fields, mapEntry, objectMeta, str, eachField } from '../../core/api/protobuf.js';
import { putEntry } from '../../core/api/own-entry.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { nameIsDnsSubdomain, regexError } from '../../core/api/selectors/label-syntax.js';
import type { JsonSchema, ResourceDefinition, TableColumn } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { resourceVersionPreconditionFailed, uidPreconditionFailed } from '../../core/registry/precondition-failed.js';
import { age } from '../../core/api/human-duration.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';
import { coreFinalizerErrors, FINALIZER_PLATFORM, finalizerNameErrors } from '../../core/registry/core-finalizers.js';
import { secretTypeErrors, secretWarnings } from './secret-types.js';

export interface Secret extends ApiObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

export const SECRET_TYPE_OPAQUE = 'Opaque';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

/** IsDNS1123Label (a generateName prefix may end in '-', as maskTrailingDash allows). */
export function dns1123LabelErrors(value: string, prefix = false): string[] {
  const v = prefix && value.length > 1 && value.endsWith('-') ? value.slice(0, -1) : value;
  const errs: string[] = [];
  if (Buffer.byteLength(v) > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(v)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

// Every column is a "string" one upstream, the Secret's Data count included.
const column = (name: string, description: string, format = ''): TableColumn =>
  ({ name, type: 'string', format, description, priority: 0 });
const NAME_COLUMN = column('Name', NAME_DESCRIPTION, 'name');
const AGE_COLUMN = column('Age', CREATION_TIMESTAMP_DESCRIPTION);

// ---- Namespace ----

const NAMESPACE_DESCRIPTION = 'Namespace provides a scope for Names. Use of multiple namespaces is optional.';

const namespaceSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Namespace',
  description: NAMESPACE_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object',
      'x-go-type': 'v1.NamespaceSpec',
      description: 'Spec defines the behavior of the Namespace.',
      properties: {
        finalizers: { type: 'array', items: { type: 'string', 'x-go-type': 'v1.FinalizerName' }, 'x-kubernetes-list-type': 'atomic', description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.' },
      },
    },
    status: {
      type: 'object',
      'x-go-type': 'v1.NamespaceStatus',
      description: 'Status describes the current status of a Namespace.',
      properties: {
        phase: { type: 'string', 'x-go-type': 'v1.NamespacePhase', description: 'Phase is the current lifecycle phase of the namespace.' },
        conditions: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'type',
          description: 'Represents the latest available observations of a namespace\'s current state.',
          items: {
            type: 'object', 'x-go-type': 'v1.NamespaceCondition', description: 'NamespaceCondition contains details about state of namespace.',
            properties: {
              type: { type: 'string', 'x-go-type': 'v1.NamespaceConditionType', description: 'Type of namespace controller condition.' },
              status: { type: 'string', 'x-go-type': 'v1.ConditionStatus', description: 'Status of the condition, one of True, False, Unknown.' },
              lastTransitionTime: { type: 'string', format: 'date-time', description: 'Last time the condition transitioned from one status to another.' },
              reason: { type: 'string', description: 'Unique, one-word, CamelCase reason for the condition\'s last transition.' },
              message: { type: 'string', description: 'Human-readable message indicating details about last transition.' },
            },
          },
        },
      },
    },
  },
};

/** Upstream's kubernetes.io/metadata.name: always the namespace's name, so selectors can name a namespace. */
export const LABEL_METADATA_NAME = 'platform/metadata.name';

/** SetDefaults_Namespace and the strategy's Canonicalize: the label is set to the name on every write. */
function labelWithName(obj: Namespace): void {
  if (!obj.metadata.name) return;
  obj.metadata.labels = { ...obj.metadata.labels, [LABEL_METADATA_NAME]: obj.metadata.name };
}

/** The spec of `old`, for the writes that may not change it. */
function keepSpecFinalizers(obj: Namespace, old: Namespace): void {
  const spec = { ...obj.spec };
  if (old.spec?.finalizers) spec.finalizers = [...old.spec.finalizers]; else delete spec.finalizers;
  obj.spec = spec;
}

/** ValidateNamespace: the core finalizer rule on metadata, and every spec finalizer a valid name. */
const validateNamespace = (obj: Namespace): FieldError[] => [
  ...coreFinalizerErrors(obj.metadata),
  ...validateEach([], obj.spec?.finalizers, (f) => finalizerNameErrors(f, 'spec.finalizers')),
];

const namespaceStrategy: Strategy<Namespace> = {
  prepareForCreate(_ctx, obj) {
    obj.status = { phase: 'Active' };
    // The namespace controller's finalizer: it holds a deleted namespace until the controller has
    // emptied it and finalized it (namespaces/finalize).
    const finalizers = obj.spec?.finalizers ?? [];
    obj.spec = { ...obj.spec, finalizers: finalizers.includes(FINALIZER_PLATFORM) ? finalizers : [...finalizers, FINALIZER_PLATFORM] };
    labelWithName(obj);
  },
  validate: (_ctx, obj) => validateNamespace(obj),
  prepareForUpdate(_ctx, obj, old) {
    keepSpecFinalizers(obj, old);
    obj.status = structuredClone(old.status ?? { phase: 'Active' });
    labelWithName(obj);
  },
  // ValidateNamespace, then ValidateNamespaceUpdate's own run of the core finalizer rule.
  validateUpdate: (_ctx, obj) => [...validateNamespace(obj), ...coreFinalizerErrors(obj.metadata)],
};

/**
 * namespaceFinalizeStrategy (PUT namespaces/{name}/finalize, the namespace controller's way to
 * take its `platform` finalizer off): spec.finalizers and metadata from the body, the status kept;
 * ValidateNamespaceFinalizeUpdate checks each spec finalizer at its index.
 */
const namespaceFinalizeStrategy: Strategy<Namespace> = {
  validate: () => [],
  prepareForUpdate(_ctx, obj, old) {
    obj.status = structuredClone(old.status ?? { phase: 'Active' });
    // finalizers is omitempty: an emptied list is not written.
    if (obj.spec?.finalizers?.length === 0) { const { finalizers: _none, ...spec } = obj.spec; obj.spec = spec; }
    labelWithName(obj);
  },
  validateUpdate: (_ctx, obj) => [
    ...coreFinalizerErrors(obj.metadata),
    ...validateEach([], obj.spec?.finalizers, (f, i) => finalizerNameErrors(f, `spec.finalizers[${i}]`)),
  ],
};

/**
 * REST.Delete's first call (GuaranteedUpdate): the namespace is Terminating from then on, and the
 * request's propagation settles whether the garbage collector's `orphan` and `foregroundDeletion`
 * finalizers hold it (shouldHaveOrphanFinalizer, shouldHaveDeleteDependentsFinalizer).
 */
function markNamespaceDeleting(obj: Namespace, options: DeleteOptionsFields): void {
  obj.status = { ...obj.status, phase: 'Terminating' };
  const current = new Set(obj.metadata.finalizers ?? []);
  const policy = options.propagationPolicy;
  const orphan = options.orphanDependents;
  const shouldHave: [string, boolean][] = [
    ['orphan', orphan !== undefined ? orphan : policy !== undefined ? policy === 'Orphan' : current.has('orphan')],
    ['foregroundDeletion', orphan !== undefined ? !orphan : policy !== undefined ? policy === 'Foreground' : current.has('foregroundDeletion')],
  ];
  if (shouldHave.every(([f, want]) => current.has(f) === want)) return;
  // Upstream rebuilds the list from a Go map, in no set order; plat keeps the existing order and
  // appends what is added.
  const next = (obj.metadata.finalizers ?? []).filter((f) => shouldHave.every(([name, want]) => f !== name || want));
  for (const [f, want] of shouldHave) if (want && !next.includes(f)) next.push(f);
  if (next.length) obj.metadata.finalizers = next; else delete obj.metadata.finalizers;
}

/** namespaceStatusStrategy: the spec stays as stored; the phase must match whether deletion began. */
const namespaceStatusStrategy: Strategy<Namespace> = {
  validate: () => [],
  prepareForUpdate(_ctx, obj, old) {
    obj.spec = structuredClone(old.spec ?? {});
    // SetDefaults_NamespaceStatus, which decoding runs.
    if (!obj.status?.phase) obj.status = { ...obj.status, phase: 'Active' };
    labelWithName(obj);
  },
  validateUpdate(_ctx, obj) {
    const errs = coreFinalizerErrors(obj.metadata);
    const phase = obj.status?.phase ?? '';
    if (!obj.metadata.deletionTimestamp) {
      if (phase !== 'Active') errs.push(fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty"));
    } else if (phase !== 'Terminating') {
      errs.push(fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
    }
    return errs;
  },
};

/** REST.Delete's own checks, ahead of the generic store's: Conflicts on `namespaces` in storage's words. */
function namespacePreconditionsError(ns: Namespace, p: { readonly uid?: string; readonly resourceVersion?: string }): StatusError | undefined {
  const conflict = (detail: string) => errors.conflict({ group: '', resource: 'namespaces' }, ns.metadata.name ?? '', detail);
  const uid = ns.metadata.uid ?? '', rv = ns.metadata.resourceVersion ?? '';
  if (p.uid !== undefined && p.uid !== uid) return conflict(uidPreconditionFailed(p.uid, uid));
  if (p.resourceVersion !== undefined && p.resourceVersion !== rv) return conflict(resourceVersionPreconditionFailed(p.resourceVersion, rv));
  return undefined;
}

export const namespaceResource: ResourceDefinition<Namespace> = {
  group: '', version: 'v1', kind: 'Namespace', listKind: 'NamespaceList', plural: 'namespaces', singular: 'namespace',
  shortNames: ['ns'], scope: 'Cluster', schema: namespaceSchema, description: NAMESPACE_DESCRIPTION,
  // Upstream's namespace REST has no DeleteCollection: one request cannot empty the cluster.
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: namespaceStrategy,
  // REST.Delete answers with the Namespace: Terminating after the first delete, as it is while
  // spec.finalizers hold it, and as it was when a later delete removes it.
  returnDeletedObject: true,
  deletePreconditionsError: namespacePreconditionsError,
  lifecycleDelete: {
    mark: markNamespaceDeleting,
    holdsDeletion: (obj) => !!obj.spec?.finalizers?.length,
  },
  subresources: [
    { name: 'finalize', verbs: ['update'], strategy: namespaceFinalizeStrategy },
    { name: 'status', strategy: namespaceStatusStrategy },
  ],
  selectableFields: (obj) => ({ 'status.phase': obj.status?.phase ?? '' }),
  table: {
    columns: [NAME_COLUMN, column('Status', 'The status of the namespace'), AGE_COLUMN],
    cells: (obj, now) => [obj.metadata.name ?? '', obj.status?.phase ?? '', age(obj.metadata.creationTimestamp, now)],
  },
  validateName: (name, prefix) => dns1123LabelErrors(name, prefix),
  decodeProtobuf(raw) {
    const obj: Namespace = { metadata: {} };
    for (const f of eachField(raw)) {
      if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
      else if (f.no === 2) {
        const finalizers = fields(f.bytes!).filter((x) => x.no === 1).map(str);
        obj.spec = finalizers.length ? { finalizers } : {};
      }
    }
    return obj;
  },
};

// ---- Secret ----

const SECRET_DATA_DESCRIPTION = 'Data contains the secret data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4';
const SECRET_TYPE_DESCRIPTION = 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types';
const SECRET_DESCRIPTION = 'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.';

const secretSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.Secret',
  description: SECRET_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' }, description: SECRET_DATA_DESCRIPTION },
    stringData: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.',
    },
    type: { type: 'string', 'x-go-type': 'v1.SecretType', description: SECRET_TYPE_DESCRIPTION },
    immutable: { type: 'boolean', description: 'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.' },
  },
};

const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY = new RegExp(`^${CONFIG_KEY_FMT}$`);
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const MAX_SECRET_SIZE = 1024 * 1024;

/** stringData overwrites data key by key (base64 of the UTF-8 text), then disappears (the conversion to internal); type defaults. */
function normalizeSecret(obj: Secret): void {
  if (obj.stringData && typeof obj.stringData === 'object') {
    const data: Record<string, string> = { ...(obj.data ?? {}) };
    for (const [k, v] of Object.entries(obj.stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
  if (obj.data && Object.keys(obj.data).length === 0) delete obj.data;
  if (!obj.type) obj.type = SECRET_TYPE_OPAQUE;
}

/** ValidateSecret (the generic metadata checks run in the store). */
function validateSecret(obj: Secret): FieldError[] {
  const errs = coreFinalizerErrors(obj.metadata);
  let total = 0;
  for (const [key, value] of Object.entries(obj.data ?? {})) {
    total += Buffer.from(value, 'base64').length;
    // The size counts every key; the keys are checked only while the answer has room.
    if (isFull(errs)) continue;
    const field = `data[${key}]`;
    if (Buffer.byteLength(key) > 253) errs.push(fieldError.invalid(field, key, 'must be no more than 253 characters'));
    if (!CONFIG_KEY.test(key)) errs.push(fieldError.invalid(field, key, regexError(CONFIG_KEY_MSG, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name')));
    const chDir = key === '.' ? "must not be '.'" : key === '..' ? "must not be '..'" : key.startsWith('..') ? "must not start with '..'" : undefined;
    if (chDir) errs.push(fieldError.invalid(field, key, chDir));
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldError.tooLong('data', MAX_SECRET_SIZE));
  appendErrors(errs, secretTypeErrors(obj));
  return errs;
}

const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

const secretStrategy: Strategy<Secret> = {
  validate: (_ctx, obj) => validateSecret(obj),
  // ValidateSecretUpdate: ValidateObjectMetaUpdate's core finalizer rule, the type, immutability,
  // then all of ValidateSecret.
  validateUpdate(_ctx, obj, old) {
    const errs = coreFinalizerErrors(obj.metadata);
    if ((obj.type ?? '') !== (old.type ?? '')) errs.push(fieldError.invalid('type', obj.type ?? '', 'field is immutable'));
    if (old.immutable === true) {
      if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', IMMUTABLE_SET));
      if (JSON.stringify(sorted(obj.data)) !== JSON.stringify(sorted(old.data))) errs.push(fieldError.forbidden('data', IMMUTABLE_SET));
    }
    return [...errs, ...validateSecret(obj)];
  },
  warnings: (_ctx, obj) => secretWarnings(obj),
};

const sorted = (m: Record<string, string> | undefined): [string, string][] =>
  Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export const secretResource: ResourceDefinition<Secret> = {
  group: '', version: 'v1', kind: 'Secret', listKind: 'SecretList', plural: 'secrets', singular: 'secret',
  scope: 'Namespaced', schema: secretSchema, description: SECRET_DESCRIPTION,
  strategy: secretStrategy,
  defaults: normalizeSecret,
  selectableFields: (obj) => ({ type: obj.type ?? '' }),
  table: {
    columns: [NAME_COLUMN, column('Type', SECRET_TYPE_DESCRIPTION), column('Data', SECRET_DATA_DESCRIPTION), AGE_COLUMN],
    cells: (obj, now) => [obj.metadata.name ?? '', obj.type ?? '', Object.keys(obj.data ?? {}).length, age(obj.metadata.creationTimestamp, now)],
  },
  validateName: nameIsDnsSubdomain,
  decodeProtobuf(raw) {
    const obj: Secret = { metadata: {} };
    for (const f of eachField(raw)) {
      if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
      else if (f.no === 2) { const [k, v] = mapEntry(f); putEntry(obj.data ??= {}, k, v.toString('base64')); }
      else if (f.no === 3) obj.type = str(f);
      else if (f.no === 4) { const [k, v] = mapEntry(f); putEntry(obj.stringData ??= {}, k, v.toString('utf8')); }
      else if (f.no === 5) obj.immutable = f.varint !== 0n;
    }
    return obj;
  },
};
