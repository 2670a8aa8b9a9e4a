// The garbage collector's two deletion finalizers as the generic store sets them on DELETE
// (store.go deletionFinalizersForGarbageCollection): `orphan` makes the collector strip the
// object's ownerReferences from its dependents before it goes, `foregroundDeletion` makes it
// delete the dependents that block the owner first. The request's propagation decides, then the
// finalizers the object already carries, then the resource's default policy (background for
// every plat resource: neither finalizer).
import type { DeleteOptionsFields } from '../admission/options.js';

/** metav1.FinalizerOrphanDependents. */
export const FINALIZER_ORPHAN = 'orphan';
/** metav1.FinalizerDeleteDependents. */
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

type Propagation = Pick<DeleteOptionsFields, 'orphanDependents' | 'propagationPolicy'>;

/** The first of the two in the list: the one an object carrying both (plat does not refuse that) is read as. */
const firstGcFinalizer = (finalizers: readonly string[]): string | undefined =>
  finalizers.find((f) => f === FINALIZER_ORPHAN || f === FINALIZER_DELETE_DEPENDENTS);

/** shouldOrphanDependents. */
export function shouldOrphanDependents(finalizers: readonly string[], o: Propagation): boolean {
  if (o.orphanDependents !== undefined && o.orphanDependents !== null) return o.orphanDependents;
  if (o.propagationPolicy === 'Orphan') return true;
  if (o.propagationPolicy === 'Background' || o.propagationPolicy === 'Foreground') return false;
  return firstGcFinalizer(finalizers) === FINALIZER_ORPHAN;
}

/** shouldDeleteDependents. */
export function shouldDeleteDependents(finalizers: readonly string[], o: Propagation): boolean {
  if (o.orphanDependents !== undefined && o.orphanDependents !== null) return false;
  if (o.propagationPolicy === 'Foreground') return true;
  if (o.propagationPolicy === 'Background' || o.propagationPolicy === 'Orphan') return false;
  return firstGcFinalizer(finalizers) === FINALIZER_DELETE_DEPENDENTS;
}

/**
 * deletionFinalizersForGarbageCollection: the finalizers the object should have, or undefined
 * when they are the same set as now. Both are taken out and put back at the end as needed.
 */
export function deletionFinalizersForGarbageCollection(finalizers: readonly string[], o: Propagation): string[] | undefined {
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_DELETE_DEPENDENTS);
  if (shouldOrphanDependents(finalizers, o)) next.push(FINALIZER_ORPHAN);
  if (shouldDeleteDependents(finalizers, o)) next.push(FINALIZER_DELETE_DEPENDENTS);
  const before = new Set(finalizers);
  const after = new Set(next);
  return before.size === after.size && [...after].every((f) => before.has(f)) ? undefined : next;
}
