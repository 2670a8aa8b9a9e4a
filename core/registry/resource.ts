// How a plugin describes a resource to the API machinery. One JSON schema serves ajv validation,
// unknown-field detection and the OpenAPI v3 document kubectl reads.
import type { StatusError } from '../api/errors.js';
import type { DeleteOptionsFields } from '../admission/options.js';
import type { ApiObject } from '../api/meta.js';
import type { UserInfo } from '../authn/user.js';
import type { Strategy, SubresourceDefinition } from './strategy.js';

/** A JSON Schema (draft 7 subset that OpenAPI v3 shares) with Kubernetes extensions. */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  /** The Go type this node decodes into in k8s.io/api, for decoder messages (core/api/go-types.ts). */
  'x-go-type'?: string;
  [extension: `x-${string}`]: unknown;
};

export interface TableColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

export interface TablePrinter<T extends ApiObject = ApiObject> {
  readonly columns: readonly TableColumn[];
  /** One row's cells, in column order. `now` makes ages deterministic in tests. */
  cells(obj: T, now: Date): unknown[];
}

/** Who asks a review, and the namespace of the request's path. */
export interface ReviewCaller {
  readonly user: UserInfo;
  readonly namespace: string;
  /** The request's context (RequestContext.signal): what the review's own calls (an authorizer's webhook) end with. */
  readonly signal?: AbortSignal;
}

export interface ResourceDefinition<T extends ApiObject = ApiObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  /** Lowercase plural: the URL segment and the RBAC resource. */
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  /** Discovery categories (`all` puts the resource into `kubectl get all`). */
  readonly categories?: readonly string[];
  readonly scope: 'Cluster' | 'Namespaced';
  /** Schema of the whole object, `apiVersion`/`kind`/`metadata` included. */
  readonly schema: JsonSchema;
  /** Schema description shown by `kubectl explain`. */
  readonly description: string;
  readonly strategy: Strategy<T>;
  /**
   * The kind's v1 defaulting, and what its conversion to the internal version does (a Secret's
   * stringData), which upstream's decoder runs: the store runs it before mutating admission, so
   * webhooks see the defaults, and again on what mutating admission left, as the webhook
   * dispatcher decodes and defaults a patched object.
   */
  defaults?(obj: T): void;
  readonly subresources?: readonly SubresourceDefinition<T>[];
  /** Field-selector values beyond `metadata.name` (and `metadata.namespace`): `spec.signerName`. */
  selectableFields?(obj: T): Record<string, string>;
  /**
   * The kind registers no field-label conversion upstream, so runtime.DefaultMetaV1FieldSelectorConversion
   * applies: `metadata.name` and `metadata.namespace` (on a cluster-scoped kind too, where it is ""),
   * and its own message for anything else. Default false: `metadata.namespace` on namespaced kinds only.
   */
  readonly defaultFieldLabelConversion?: boolean;
  readonly table?: TablePrinter<T>;
  /** Default false: PUT to a missing name is 404. */
  readonly allowCreateOnUpdate?: boolean;
  /** Default true: PUT without resourceVersion applies to the latest version. */
  readonly allowUnconditionalUpdate?: boolean;
  /**
   * Upstream's rest.Unsupported garbage collection policy (Events): a DELETE's propagation sets no
   * `orphan` or `foregroundDeletion` finalizer. Default false.
   */
  readonly garbageCollectionUnsupported?: boolean;
  /** Default false: a DELETE answers a Success Status; true: the deleted object (upstream's ReturnDeletedObject). */
  readonly returnDeletedObject?: boolean;
  /**
   * A DELETE's preconditions checked in the resource's own words before the generic store's
   * (upstream's namespace REST.Delete checks them before calling the store): the refusal, if any.
   */
  deletePreconditionsError?(obj: T, preconditions: { readonly uid?: string; readonly resourceVersion?: string }): StatusError | undefined;
  /**
   * A REST whose deletion is a lifecycle of its own (upstream's namespace REST.Delete): the first
   * delete only marks the object (deletionTimestamp, then `mark`), whatever its finalizers; a later
   * one answers it unchanged while `holdsDeletion` says so, else deletes as the generic store does.
   * An update that leaves no metadata finalizers deletes only when `holdsDeletion` is false too
   * (ShouldDeleteNamespaceDuringUpdate).
   */
  readonly lifecycleDelete?: {
    /** On a copy of the stored object that already has its deletionTimestamp; `options` the request's DeleteOptions. */
    mark(obj: T, options: DeleteOptionsFields): void;
    holdsDeletion(obj: T): boolean;
  };
  /** Verbs served (discovery lists them); default all eight. */
  readonly verbs?: readonly string[];
  /**
   * A create-only resource that is answered, not stored (TokenReview, SelfSubjectReview, access
   * reviews): POST runs this with the caller and the admitted object and returns the answer (201).
   */
  review?(caller: ReviewCaller, obj: T): Promise<T>;
  /**
   * A review's own checks of its object, run between the two admission phases (ResourceStore.review):
   * upstream's review RESTs check the object before they call createValidation. Refuses by throwing.
   */
  validateReview?(caller: ReviewCaller, obj: T): void;
  /**
   * True for a review whose upstream REST never calls createValidation (SelfSubjectRulesReview):
   * validating admission does not run on it; mutating admission still does.
   */
  readonly reviewSkipsValidatingAdmission?: boolean;
  /** Decodes the raw protobuf message of this kind (request bodies of kubectl's typed clients). */
  decodeProtobuf?(raw: Buffer): ApiObject;
  /** Names are validated as path segments only unless this is given. */
  validateName?(name: string, prefix: boolean): string[];
  /**
   * The upstream group this resource renames, served as a wire alias for typed clients that
   * hard-code it (core/server/wire-alias.ts): `rbac.authorization.k8s.io` for RBAC.
   */
  readonly wireGroup?: string;
  /** Converts a create or update body sent under `wireGroup` (group names inside it), before anything else sees it. */
  fromWireGroup?(obj: T): void;
  /** The reverse, on a copy of an object answered under `wireGroup`. */
  toWireGroup?(obj: T): void;
  /**
   * Another resource's objects served in this group and version (upstream: one storage, several
   * served versions; events.k8s.io/v1 Events are core/v1 Events): the keys are that resource's, and
   * every value is converted at the storage boundary (core/storage/converting-storage.ts), so this
   * resource's schema, strategy, selectors and table see only its own form.
   */
  readonly storedAs?: StoredAs;
}

export interface StoredAs {
  /** The resource whose keys hold the objects (`''` and `events`). */
  readonly group: string;
  readonly plural: string;
  /** A stored object in this resource's form (a new object: the input may be frozen). */
  fromStored(stored: ApiObject): ApiObject;
  /** This resource's object in the stored form, keys in the order the stored kind writes them. */
  toStored(obj: ApiObject): ApiObject;
}

/** A GET-only path outside /api and /apis (the service-account issuer's discovery document). */
export interface NonResourcePath {
  readonly path: string;
  /** The current answer; undefined serves 404 (the feature is configured off). */
  get(): { readonly contentType: string; readonly body: string; readonly headers?: Readonly<Record<string, string>> } | undefined;
}

export interface ResourceRegistry {
  register<T extends ApiObject>(def: ResourceDefinition<T>): void;
  /** Serves a non-resource path; authentication and authorization apply as to every path. */
  registerPath(p: NonResourcePath): void;
  get(group: string, version: string, plural: string): ResourceDefinition | undefined;
  all(): readonly ResourceDefinition[];
}
