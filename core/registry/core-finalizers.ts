// The core group's own finalizer-name rule (pkg/apis/core/validation validateKubeFinalizerName),
// which the core kinds' ValidateObjectMeta and ValidateObjectMetaUpdate add to the generic checks:
// a name without a '/' must be one of the standard ones. Other groups (CSRs) accept any qualified
// name, so the rule is called by the core strategies, not by the generic store.
import { fieldError, validateEach, type FieldError } from '../api/field-errors.js';
import type { ObjectMeta } from '../api/meta.js';
import { qualifiedNameErrors } from '../api/selectors/label-syntax.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN } from './gc-finalizers.js';

/** Upstream's FinalizerKubernetes, renamed as plat renames `kubernetes`: the namespace finalizer. */
export const FINALIZER_PLATFORM = 'platform';

/** helper.IsStandardFinalizerName's set: the namespace finalizer, orphan and foregroundDeletion. */
const STANDARD_FINALIZERS = new Set([FINALIZER_PLATFORM, FINALIZER_ORPHAN, FINALIZER_DELETE_DEPENDENTS]);

/** validateKubeFinalizerName. */
export function kubeFinalizerNameErrors(value: string, field: string): FieldError[] {
  if (value.includes('/') || STANDARD_FINALIZERS.has(value)) return [];
  return [fieldError.invalid(field, value, 'name is neither a standard finalizer name nor is it fully qualified')];
}

/** The core kinds' extra metadata.finalizers check, each name at its index. */
export function coreFinalizerErrors(meta: ObjectMeta): FieldError[] {
  return validateEach([], meta.finalizers, (f, i) => kubeFinalizerNameErrors(f, `metadata.finalizers[${i}]`));
}

/** validateFinalizerName (a Namespace's spec.finalizers): a qualified name, then the core rule. */
export function finalizerNameErrors(value: string, field: string): FieldError[] {
  return [...qualifiedNameErrors(value).map((msg) => fieldError.invalid(field, value, msg)), ...kubeFinalizerNameErrors(value, field)];
}
