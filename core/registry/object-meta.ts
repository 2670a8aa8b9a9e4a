// Generic ObjectMeta validation (apimachinery/pkg/api/validation/objectmeta.go), run by the store
// before a resource's own strategy validation.
import { appendErrors, fieldError, isFull, validateEach, type FieldError } from '../api/field-errors.js';
import type { ApiObject, ObjectMeta } from '../api/meta.js';
import { labelValueErrors, qualifiedNameErrors } from '../api/selectors/label-syntax.js';
import { goTime } from '../go-time-text.js';
import { validateOwnerReferences } from './owner-references.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN } from './gc-finalizers.js';
import { goStrings } from '../api/go-object-meta.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function validateLabels(labels: Record<string, string> | undefined): FieldError[] {
  return validateEach([], Object.entries(labels ?? {}), ([k, v]) => [
    ...qualifiedNameErrors(k).map((msg) => fieldError.invalid('metadata.labels', k, msg)),
    ...labelValueErrors(v).map((msg) => fieldError.invalid('metadata.labels', v, msg)),
  ]);
}

function validateAnnotations(annotations: Record<string, string> | undefined): FieldError[] {
  const out: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // The size counts every annotation; the keys are checked only while the answer has room.
    if (!isFull(out)) for (const msg of qualifiedNameErrors(k.toLowerCase())) out.push(fieldError.invalid('metadata.annotations', k, msg));
    total += k.length + v.length;
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) out.push(fieldError.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT));
  return out;
}

/** Path-segment rules every name obeys (names are URL segments). */
export function pathSegmentNameErrors(name: string, prefix: boolean): string[] {
  const out: string[] = [];
  if (!prefix && (name === '.' || name === '..')) out.push(`may not be '${name}'`);
  for (const bad of ['/', '%']) if (name.includes(bad)) out.push(`may not contain '${bad}'`);
  return out;
}

export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (!meta.name && !meta.generateName) out.push(fieldError.required('metadata.name', 'name or generateName is required'));
  if (namespaced && !meta.namespace) out.push(fieldError.required('metadata.namespace', ''));
  if (!namespaced && meta.namespace) out.push(fieldError.forbidden('metadata.namespace', 'not allowed on this type'));
  if ((meta.generation ?? 0) < 0) out.push(fieldError.invalid('metadata.generation', meta.generation ?? 0, 'must be greater than or equal to 0'));
  appendErrors(out, validateLabels(meta.labels));
  appendErrors(out, validateAnnotations(meta.annotations));
  appendErrors(out, validateOwnerReferences(meta.ownerReferences));
  return validateFinalizers(out, meta.finalizers);
}

/**
 * ValidateFinalizers: each a qualified name, and not both of the garbage collector's two, which are
 * opposites (orphan the dependents, or delete them first).
 */
function validateFinalizers(out: FieldError[], finalizers: readonly string[] | undefined): FieldError[] {
  validateEach(out, finalizers, (f, i) => qualifiedNameErrors(f).map((msg) => fieldError.invalid(`metadata.finalizers[${i}]`, f, msg)));
  if (finalizers?.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    appendErrors(out, [{ type: 'FieldValueInvalid', field: 'metadata.finalizers',
      message: `Invalid value: ${goStrings(finalizers)}: finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set` }]);
  }
  return out;
}

const immutable = ['name', 'namespace', 'uid', 'creationTimestamp'] as const;

/**
 * A *metav1.Time in a field error: a fmt.Stringer, so printed bare with time.Time's String() (the
 * server's zone being UTC), not quoted as a string would be.
 */
const immutableTime = (field: string, t: string): FieldError =>
  ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${goTime(new Date(t))}: field is immutable` });

/** ValidateObjectMetaAccessorUpdate, in its order (the resourceVersion check is the store's). */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, namespaced: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    for (const f of meta.finalizers ?? []) {
      if (!before.has(f)) out.push(fieldError.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify([f])}`));
    }
  }
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    out.push(fieldError.invalid('metadata.generation', meta.generation ?? 0, 'must not be decremented'));
  }
  for (const f of immutable) {
    if ((meta[f] ?? '') !== (old[f] ?? '')) out.push(fieldError.invalid(`metadata.${f}`, meta[f] ?? '', 'field is immutable'));
  }
  // Only reachable where the stored object has none (restoreSystemMeta keeps a set one): a client
  // cannot start a deletion, or set its grace period, with an update.
  if ((meta.deletionTimestamp ?? null) !== (old.deletionTimestamp ?? null)) {
    out.push(meta.deletionTimestamp ? immutableTime('metadata.deletionTimestamp', meta.deletionTimestamp)
      : fieldError.invalid('metadata.deletionTimestamp', null, 'field is immutable'));
  }
  if ((meta.deletionGracePeriodSeconds ?? null) !== (old.deletionGracePeriodSeconds ?? null)) {
    out.push(fieldError.invalid('metadata.deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds ?? null, 'field is immutable'));
  }
  appendErrors(out, validateLabels(meta.labels));
  appendErrors(out, validateAnnotations(meta.annotations));
  appendErrors(out, validateOwnerReferences(meta.ownerReferences));
  void namespaced;
  // Upstream's update validations run the whole object's validation too (ValidateSecretUpdate
  // calls ValidateSecret, ValidateClusterRoleUpdate ValidateClusterRole, ...), whose ObjectMeta
  // check is where an update's finalizers are refused.
  return validateFinalizers(out, meta.finalizers);
}

/**
 * The fields of metadata every update keeps from the stored object (rest.BeforeUpdate). The
 * deletion fields are kept only where the stored object has them, so that setting them on a live
 * object is refused by validateObjectMetaUpdate rather than silently dropped.
 */
export function restoreSystemMeta(obj: ApiObject, old: ApiObject): void {
  const m = obj.metadata, o = old.metadata;
  if (!m.uid && o.uid) m.uid = o.uid;
  m.creationTimestamp = o.creationTimestamp ?? null;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  delete m.selfLink;
}

/**
 * rest.WipeObjectMetaSystemFields: what a create's body says of these is the client's to say
 * only in its own head. The create handler wipes them before admission; Store.create fills them.
 */
export function wipeObjectMetaSystemFields(obj: ApiObject): void {
  const m = obj.metadata;
  // The zero metav1.Time, which Go writes as null: an admission webhook sees it so.
  m.creationTimestamp = null;
  delete m.uid; delete m.deletionTimestamp; delete m.deletionGracePeriodSeconds; delete m.selfLink;
}
