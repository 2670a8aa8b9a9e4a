// ListOptions as the query string carries them, validated as apimachinery's
// meta/internalversion/validation does (k8s-behaviour §8.4, §8.6).
import { errors, StatusError } from '../api/errors.js';
import { aggregateFieldErrors, fieldError, goQuote, type FieldError } from '../api/field-errors.js';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

// The query decodes as ParameterCodec.DecodeParameters converts url.Values (runtime's
// Convert_Slice_string_To_*): the first value counts, a boolean is false only for "0" or "false"
// (any case) and true for anything else, an integer is strconv.ParseInt's and a failure is a 400
// in its words.
export const queryBool = (v: string | null): boolean | undefined => (v === null ? undefined : !(v === '0' || v.toLowerCase() === 'false'));
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(v, 10, 64), its error as the 400 DecodeParameters' callers answer with. */
export function queryInt64(v: string): number {
  if (!/^[+-]?[0-9]+$/.test(v)) throw errors.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n < INT64_MIN || n > INT64_MAX) throw errors.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return Number(n);
}
const int = (v: string | null): number | undefined => (v === null ? undefined : queryInt64(v));

function invalidListOptions(errs: FieldError[]): StatusError {
  return new StatusError({
    code: 422, reason: 'Invalid',
    message: `ListOptions.meta.k8s.io "" is invalid: ${aggregateFieldErrors(errs)}`,
    details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: errs.map((e) => ({ reason: e.type, message: e.message, field: e.field })) },
  });
}

/** Parses a resourceVersion: '' -> undefined, else a non-negative integer. */
export function parseResourceVersion(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  if (!/^\d+$/.test(rv)) throw errors.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return Number(rv);
}

export function parseListOptions(q: URLSearchParams): ListOptions {
  const o: ListOptions = {
    watch: queryBool(q.get('watch')) ?? false,
    allowWatchBookmarks: queryBool(q.get('allowWatchBookmarks')) ?? false,
  };
  const set = <K extends keyof ListOptions>(k: K, v: ListOptions[K] | undefined | null) => { if (v !== undefined && v !== null) o[k] = v; };
  set('labelSelector', q.get('labelSelector'));
  set('fieldSelector', q.get('fieldSelector'));
  set('limit', int(q.get('limit')));
  set('continue', q.get('continue') || undefined);
  set('resourceVersion', q.get('resourceVersion'));
  set('resourceVersionMatch', q.get('resourceVersionMatch') || undefined);
  set('sendInitialEvents', queryBool(q.get('sendInitialEvents')));
  set('timeoutSeconds', int(q.get('timeoutSeconds')));
  validate(o);
  return o;
}

function validate(o: ListOptions): void {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  const rv = o.resourceVersion ?? '';
  if (o.watch) {
    // apimachinery's validateWatchOptions: the errors accumulate.
    if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errs.push(fieldError.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match !== undefined) {
      if (o.sendInitialEvents === undefined) {
        errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') errs.push(fieldError.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (o.continue) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    // ValidateListOptions: every error, in its order.
    if (match !== undefined) {
      if (rv === '') errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (o.continue) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') {
        errs.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
      }
      if (match === 'Exact' && rv === '0') {
        errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (o.sendInitialEvents !== undefined) errs.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length) throw invalidListOptions(errs);
  parseResourceVersion(o.resourceVersion);
}
