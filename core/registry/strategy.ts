// A resource's rules, apart from the generic store that owns the order of steps
// (prepare -> validate -> admission -> write). One Strategy for the main resource and one per
// subresource that accepts writes (`status`, `approval`): this is why a client cannot approve its
// own request through a plain update.
import type { ApiObject } from '../api/meta.js';
import type { FieldError } from '../api/field-errors.js';
import type { UserInfo } from '../authn/user.js';
import type { JsonSchema } from './resource.js';

export interface StrategyContext {
  readonly user: UserInfo;
  /** '' for the main resource. */
  readonly subresource: string;
  readonly now: Date;
}

export interface Strategy<T extends ApiObject = ApiObject> {
  /** Clears and fills server-set fields on create (e.g. spec.username from the caller). */
  prepareForCreate?(ctx: StrategyContext, obj: T): void;
  validate(ctx: StrategyContext, obj: T): FieldError[];
  /** Resets fields this endpoint may not change (copies them from `old`). */
  prepareForUpdate?(ctx: StrategyContext, obj: T, old: T): void;
  validateUpdate(ctx: StrategyContext, obj: T, old: T): FieldError[];
  /** Warnings returned to the client in `Warning` headers. */
  warnings?(ctx: StrategyContext, obj: T, old?: T): string[];
  /**
   * GetResetFields: the fields this endpoint resets (prepare copies them from the stored object),
   * as paths of field names. A write here never owns them (managedFields), nor conflicts on them.
   */
  readonly resetFields?: readonly (readonly string[])[];
}

export interface SubresourceDefinition<T extends ApiObject = ApiObject> {
  readonly name: string;
  /**
   * The verbs served, when not those the strategy and create imply (namespaces/finalize: upstream's
   * FinalizeREST is an Updater only, so `update`).
   */
  readonly verbs?: readonly string[];
  /** Present: the subresource accepts update/patch with these rules. */
  readonly strategy?: Strategy<T>;
  /** Present: POST to `{name}/{subresource}` is answered by this (a TokenRequest), nothing stored. */
  readonly create?: SubresourceCreate<T>;
}

export interface SubresourceCreateContext<T extends ApiObject = ApiObject> {
  readonly user: UserInfo;
  readonly namespace: string;
  /** The parent object's name (from the URL). */
  readonly name: string;
  /** The parent object as stored (404 before the handler runs when missing). */
  readonly parent: T;
  readonly dryRun: boolean;
  readonly warnings: string[];
}

/** A create-only subresource whose body is another kind than its parent's. */
export interface SubresourceCreate<T extends ApiObject = ApiObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Other apiVersions a body may name (clients built for upstream's group); the answer keeps it. */
  readonly alsoAccepts?: readonly string[];
  /** Schema of the body kind (type checks, unknown fields, OpenAPI). */
  readonly schema: JsonSchema;
  decodeProtobuf?(raw: Buffer): ApiObject;
  /** Validates and answers; throws StatusErrors. */
  create(ctx: SubresourceCreateContext<T>, obj: ApiObject): Promise<ApiObject>;
}
