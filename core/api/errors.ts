// Every failure the API answers with is a StatusError: a meta/v1 Status body plus its HTTP code.
// Messages follow apimachinery's errors.go (k8s-behaviour.md §8.1) word for word.
import { aggregateFieldErrors, isFull, MAX_REPORTED_FIELD_ERRORS, tooManyFieldErrors, type FieldError } from './field-errors.js';

export interface StatusCause { reason?: string; message?: string; field?: string }
export interface StatusDetails {
  name?: string; group?: string; kind?: string; uid?: string;
  causes?: StatusCause[]; retryAfterSeconds?: number;
}
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string; resourceVersion?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A resource as errors name it: `certificatesigningrequests.certificates.platform`. */
export interface QualifiedResource { group: string; resource: string }
export const qualified = (r: QualifiedResource): string => (r.group ? `${r.resource}.${r.group}` : r.resource);

const OMIT_EMPTY = new Set(['name', 'group', 'kind', 'uid']);

/**
 * Marks every StatusError, whichever copy of plat made it: a plugin package that installs its own
 * plat (a dependency rather than a peer) throws errors of that copy's class, which `instanceof`
 * against the host's class does not recognise; the registry's symbol is shared by every copy.
 */
const STATUS_ERROR = Symbol.for('plat.StatusError');

export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers (Retry-After, ...). */
  readonly headers: Record<string, string>;
  constructor(status: Omit<Status, 'kind' | 'apiVersion' | 'metadata' | 'status'> & { metadata?: Status['metadata'] },
    headers: Record<string, string> = {}) {
    // An answer, not a fault: its stack would never be read (panics, which are logged with theirs,
    // are never StatusErrors), and capturing one is most of the cost of making it (~9 of 11 µs
    // from a request's depth), paid on every 404, 409 and 422.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(status.message ?? status.reason ?? `status ${status.code}`);
    Error.stackTraceLimit = stackTraceLimit;
    // In Go's field order (metav1.Status): kind, apiVersion, metadata, status, message, reason, details, code.
    const { message, reason, code } = status;
    // metav1.StatusDetails tags name, group, kind and uid omitempty: a core-group resource's
    // details carry no "group": "".
    const details = status.details && Object.fromEntries(Object.entries(status.details).filter(([k, v]) => !(v === '' && OMIT_EMPTY.has(k)))) as StatusDetails;
    this.status = {
      kind: 'Status', apiVersion: 'v1', metadata: status.metadata ?? {}, status: 'Failure',
      ...(message !== undefined ? { message } : {}), ...(reason !== undefined ? { reason } : {}), ...(details !== undefined ? { details } : {}), code,
    };
    this.headers = headers;
    // Not enumerable: kept out of JSON and logs.
    Object.defineProperty(this, STATUS_ERROR, { value: true });
  }
  get code(): number { return this.status.code; }
  get reason(): string | undefined { return this.status.reason; }
}

/** A StatusError of this or of another copy of plat (STATUS_ERROR): use this, never `instanceof`. */
export const isStatusError = (e: unknown): e is StatusError =>
  typeof e === 'object' && e !== null && (e as { [STATUS_ERROR]?: unknown })[STATUS_ERROR] === true;
export const hasReason = (e: unknown, reason: string): boolean => isStatusError(e) && e.reason === reason;

export const errors = {
  notFound: (r: QualifiedResource, name: string) => new StatusError({
    code: 404, reason: 'NotFound', message: `${qualified(r)} "${name}" not found`,
    details: { name, group: r.group, kind: r.resource },
  }),
  /** The generic 404 for a path that names no resource. */
  pathNotFound: () => new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} }),
  alreadyExists: (r: QualifiedResource, name: string) => new StatusError({
    code: 409, reason: 'AlreadyExists', message: `${qualified(r)} "${name}" already exists`,
    details: { name, group: r.group, kind: r.resource },
  }),
  generateNameConflict: (r: QualifiedResource, name: string) => new StatusError({
    code: 409, reason: 'AlreadyExists',
    message: `${qualified(r)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    details: { name, group: r.group, kind: r.resource, retryAfterSeconds: 1 },
  }),
  conflict: (r: QualifiedResource, name: string, detail: string) => new StatusError({
    code: 409, reason: 'Conflict', message: `Operation cannot be fulfilled on ${qualified(r)} "${name}": ${detail}`,
    details: { name, group: r.group, kind: r.resource },
  }),
  staleResourceVersion: (r: QualifiedResource, name: string) => errors.conflict(r, name,
    'the object has been modified; please apply your changes to the latest version and try again'),
  invalid: (kind: { group: string; kind: string }, name: string, errs: readonly FieldError[]) => {
    const causes = isFull(errs) ? [...errs.slice(0, MAX_REPORTED_FIELD_ERRORS), tooManyFieldErrors()] : errs;
    return new StatusError({
      code: 422, reason: 'Invalid',
      message: `${kind.kind}${kind.group ? '.' + kind.group : ''} "${name}" is invalid: ${aggregateFieldErrors(causes)}`,
      details: {
        name, group: kind.group, kind: kind.kind,
        // StatusCause.Field is omitempty: the too-many note names no field.
        causes: causes.map((c) => ({ reason: c.type, message: c.message, ...(c.field ? { field: c.field } : {}) })),
      },
    });
  },
  badRequest: (message: string) => new StatusError({ code: 400, reason: 'BadRequest', message }),
  unauthorized: (message = 'Unauthorized') => new StatusError({ code: 401, reason: 'Unauthorized', message }),
  forbidden: (r: QualifiedResource, name: string, why: string) => new StatusError({
    code: 403, reason: 'Forbidden',
    message: `${qualified(r)}${name ? ` "${name}"` : ''} is forbidden: ${why}`,
    details: { ...(name ? { name } : {}), group: r.group, kind: r.resource },
  }),
  /** 403 for a request that names no resource (a non-resource URL). */
  forbiddenPath: (message: string) => new StatusError({ code: 403, reason: 'Forbidden', message, details: {} }),
  methodNotAllowed: (verb: string, r: QualifiedResource) => new StatusError({
    code: 405, reason: 'MethodNotAllowed', message: `${verb} is not supported on resources of kind "${qualified(r)}"`,
    details: { group: r.group, kind: r.resource },
  }),
  /**
   * A method the path has no route for (POST or DELETE on a namespaced resource's all-namespaces
   * list, PUT on a collection): go-restful's 405, as the apiserver's serviceErrorHandler writes it
   * (NewGenericServerResponse with isUnexpectedResponse false: no causes, empty details).
   */
  noRouteForMethod: () => new StatusError({
    code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource',
    details: {},
  }),
  notAcceptable: (message: string) => new StatusError({ code: 406, reason: 'NotAcceptable', message }),
  expired: (message: string, continueToken?: string) => new StatusError({
    code: 410, reason: 'Expired', message, ...(continueToken ? { metadata: { continue: continueToken } } : {}),
  }),
  /** NewRequestEntityTooLargeError: its prefix is part of every such message (body limit, JSON patch size). */
  requestEntityTooLarge: (message: string) => new StatusError({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${message}` }),
  /** negotiation's errUnsupportedMediaType: its Status() sets no details. */
  unsupportedMediaType: (_contentType: string, accepted: readonly string[]) => new StatusError({
    code: 415, reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  }),
  tooLargeResourceVersion: (rv: number, current: number) => new StatusError({
    code: 504, reason: 'Timeout', message: `Timeout: Too large resource version: ${rv}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  }),
  /** NewTimeoutError with no retry: its details are empty, RetryAfterSeconds being omitempty. */
  timeout: (message: string) => new StatusError({ code: 504, reason: 'Timeout', message: `Timeout: ${message}`, details: {} }),
  serviceUnavailable: (message: string) => new StatusError({ code: 503, reason: 'ServiceUnavailable', message }),
  internal: (err: unknown) => new StatusError({
    code: 500, reason: 'InternalError',
    message: `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
    details: { causes: [{ message: err instanceof Error ? err.message : String(err) }] },
  }),
  /** A non-Status error from deep inside: 500 with no reason, raw text (as apiserver does). */
  unknown: (message: string) => new StatusError({ code: 500, message }),
};
