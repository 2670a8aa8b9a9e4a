// What admission plugins see. Mutating plugins may change `object`; validating plugins throw a
// StatusError (usually `errors.forbidden`) to refuse.
import type { ApiObject } from '../api/meta.js';
import type { UserInfo } from '../authn/user.js';
import type { Attributes, Decision } from '../authz/attributes.js';
import type { AnnotationMethods } from './annotations.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * addAnnotation / addAnnotationWithLevel (annotations.ts): audit annotations, `prefix/name` keys,
 * in the request's audit event when its level is at least the annotation's (Metadata by default).
 */
export interface AdmissionRequest extends AnnotationMethods {
  readonly operation: AdmissionOperation;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /**
   * The name in the request's URL (upstream's RequestInfo.Name): empty for a POST, whose object
   * names itself, and `name` for every other request, a PUT or apply that creates included.
   */
  readonly requestName: string;
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /** The object being written (mutable in admitMutate; in admitValidate a copy, changes are dropped); undefined for DELETE. */
  object: ApiObject | undefined;
  readonly oldObject: ApiObject | undefined;
  /** The request's options as Go encodes them (options.ts): CreateOptions, UpdateOptions or DeleteOptions; null for CONNECT. */
  readonly options: Record<string, unknown> | null;
  /** When the request times out, in ms since the epoch: a plugin that calls out bounds its call by it. */
  readonly deadline?: number;
  /**
   * The request's context: aborted at the deadline or when its client goes away, its reason's
   * message being ctx.Err()'s text. A plugin that calls out ends its call then, as upstream's
   * calls made with the request's context end.
   */
  readonly signal?: AbortSignal;
  /** Warnings for the response's `Warning` headers (an admission webhook's `response.warnings`). */
  readonly warnings: string[];
  /** Asks the authorizer chain, for plugins such as CertificateApproval that check a verb. */
  authorize(attributes: Omit<Attributes, 'user'>): Promise<Decision | undefined>;
}
