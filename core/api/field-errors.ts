// Field errors rendered exactly as apimachinery's field.Error, so that clients see the messages
// they would see from the system the spec describes (k8s-behaviour.md §1.5).
import { goQuote } from '../go-quote.js';
import { aggregate } from '../aggregate.js';

export { goQuote };

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** The cause message: the body without the field path. */
  readonly message: string;
}

/**
 * How Go renders a bad value in a field error: numbers and booleans raw, strings quoted with
 * Go's %q, byte slices as a JSON base64 string (or null), string slices as JSON.
 */
export type FieldValue = string | number | boolean | Uint8Array | null | undefined | readonly string[];

export function renderValue(v: FieldValue): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString('base64'));
  return JSON.stringify(v);
}

const withDetail = (body: string, detail?: string): string => (detail ? `${body}: ${detail}` : body);

export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({
    type: 'FieldValueRequired', field, message: withDetail('Required value', detail),
  }),
  invalid: (field: string, value: FieldValue, detail?: string): FieldError => ({
    type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${renderValue(value)}`, detail),
  }),
  notSupported: (field: string, value: FieldValue, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${renderValue(value)}` +
      (supported.length ? `: supported values: ${supported.map((s) => goQuote(s)).join(', ')}` : ''),
  }),
  duplicate: (field: string, value: FieldValue): FieldError => ({
    type: 'FieldValueDuplicate', field, message: `Duplicate value: ${renderValue(value)}`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}`,
  }),
  tooLong: (field: string, max: number): FieldError => ({
    type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${max} bytes`,
  }),
};

/**
 * How many field errors one Invalid answer reports (errors.invalid). Upstream reports every one,
 * but a 3 MiB body of a million bad list items then costs gigabytes here: the first ones, and a
 * last cause saying there were more, are what a client can act on. Validators that walk a list
 * from a body stop once they have more than this (validateEach), so that cost is bounded too.
 */
export const MAX_REPORTED_FIELD_ERRORS = 1000;

/** The last cause of an answer that had more errors than it reports. */
export const tooManyFieldErrors = (): FieldError => ({
  type: 'FieldValueTooMany', field: '',
  message: `Too many errors: only the first ${MAX_REPORTED_FIELD_ERRORS} are reported, the rest were not checked`,
});

/** True once `errs` holds more than an answer reports: looking for more is wasted work. */
export const isFull = (errs: readonly FieldError[]): boolean => errs.length > MAX_REPORTED_FIELD_ERRORS;

/**
 * Checks the items in order, appending what `each` returns (or `each` pushes onto `errs` itself),
 * and stops after the item where `errs` became full: a body's list of a million bad items costs
 * what a thousand do. Returns `errs`.
 */
export function validateEach<T>(errs: FieldError[], items: readonly T[] | null | undefined, each: (item: T, i: number) => readonly FieldError[] | void): FieldError[] {
  const n = items?.length ?? 0;
  for (let i = 0; i < n && !isFull(errs); i++) {
    const more = each(items![i]!, i);
    if (more) appendErrors(errs, more);
  }
  return errs;
}

/** errs.push(...more) without passing `more` as arguments, which overflows the stack past ~100k. */
export function appendErrors(errs: FieldError[], more: readonly FieldError[]): FieldError[] {
  for (const e of more) errs.push(e);
  return errs;
}

/** `path: body`, as field.Error.Error() prints it. */
export function formatFieldError(e: FieldError): string {
  return e.field ? `${e.field}: ${e.message}` : e.message;
}

/** The aggregate text of a list of errors: one error bare, several in brackets, deduplicated. */
export function aggregateFieldErrors(errs: readonly FieldError[]): string {
  return aggregate(errs.map(formatFieldError));
}

/** Builds child paths the way field.Path does: `spec.usages[2]`, `metadata.labels[app]`. */
export class FieldPath {
  constructor(readonly text: string) {}
  static root(name: string): FieldPath { return new FieldPath(name); }
  child(name: string): FieldPath { return new FieldPath(this.text ? `${this.text}.${name}` : name); }
  index(i: number): FieldPath { return new FieldPath(`${this.text}[${i}]`); }
  key(k: string): FieldPath { return new FieldPath(`${this.text}[${k}]`); }
  toString(): string { return this.text; }
}
