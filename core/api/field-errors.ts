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
