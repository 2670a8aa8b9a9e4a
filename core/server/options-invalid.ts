// The 422 for query or body options that fail apimachinery's meta/v1 validation (CreateOptions,
// UpdateOptions, PatchOptions, DeleteOptions): NewInvalid with the meta.k8s.io group and no name.
import { StatusError } from '../api/errors.js';
import { aggregateFieldErrors, type FieldError } from '../api/field-errors.js';

export function optionsInvalid(kind: string, errs: readonly FieldError[]): StatusError {
  return new StatusError({
    code: 422, reason: 'Invalid', message: `${kind}.meta.k8s.io "" is invalid: ${aggregateFieldErrors(errs)}`,
    details: { group: 'meta.k8s.io', kind, causes: errs.map((e) => ({ reason: e.type, message: e.message, field: e.field })) },
  });
}
