// The request's options as admission sees them (AdmissionRequest.options): the metav1 options
// object its handler decoded, typed as CreateOptions, UpdateOptions or DeleteOptions, and encoded
// as Go encodes it (the struct's field order, empty fields omitted). A patch's options become
// CreateOptions or UpdateOptions after what the patch does (patchToCreateOptions,
// patchToUpdateOptions: `force` is not carried over); a create through PUT's, CreateOptions.
import type { AdmissionOperation } from './request.js';

/** The fields CreateOptions, UpdateOptions and PatchOptions share, as the query gave them. */
export interface WriteOptions {
  readonly dryRun: readonly string[];
  readonly fieldManager: string;
  readonly fieldValidation: string;
}

/** metav1.DeleteOptions as decoded from the body or the query. */
export interface DeleteOptionsFields {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly orphanDependents?: boolean;
  readonly propagationPolicy?: string;
  readonly dryRun?: readonly string[];
  readonly ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export type RequestOptions = { readonly write: WriteOptions } | { readonly delete: DeleteOptionsFields };

/** The query's CreateOptions, UpdateOptions or PatchOptions fields (a string field takes the first value, as the parameter codec). */
export const writeOptionsOf = (query: URLSearchParams): RequestOptions => ({
  write: { dryRun: query.getAll('dryRun'), fieldManager: query.get('fieldManager') ?? '', fieldValidation: query.get('fieldValidation') ?? '' },
});

const META_V1 = 'meta.k8s.io/v1';
const typeMeta = (kind: string) => ({ kind, apiVersion: META_V1 });

/**
 * Go's omitempty: a key is left out when its value is undefined, '' or an empty list. A plain
 * loop: every write builds this object twice (both admission phases), and the entries/filter/
 * fromEntries form of it cost several microseconds each time.
 */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  }
  return out;
}

function deleteOptions(o: DeleteOptionsFields): Record<string, unknown> {
  const p = o.preconditions;
  return compact({
    ...typeMeta('DeleteOptions'),
    gracePeriodSeconds: o.gracePeriodSeconds,
    // Pointers: an empty string set is still sent.
    preconditions: p ? Object.fromEntries(Object.entries({ uid: p.uid, resourceVersion: p.resourceVersion }).filter(([, v]) => v !== undefined)) : undefined,
    orphanDependents: o.orphanDependents,
    propagationPolicy: o.propagationPolicy,
    dryRun: o.dryRun,
    ignoreStoreReadErrorWithClusterBreakingPotential: o.ignoreStoreReadErrorWithClusterBreakingPotential,
  });
}

/**
 * The options object of `operation`'s admission. Without the request's options (a write plat
 * makes itself) only dryRun is known.
 */
export function admissionOptions(operation: AdmissionOperation, options: RequestOptions | undefined, dryRun: boolean): Record<string, unknown> | null {
  const kind = operation === 'CREATE' ? 'CreateOptions' : operation === 'UPDATE' ? 'UpdateOptions' : operation === 'DELETE' ? 'DeleteOptions' : undefined;
  if (!kind) return null;
  if (options && 'delete' in options && kind === 'DeleteOptions') return deleteOptions(options.delete);
  const w = options && 'write' in options ? options.write : { dryRun: dryRun ? ['All'] : [], fieldManager: '', fieldValidation: '' };
  return compact({ kind, apiVersion: META_V1, dryRun: w.dryRun, fieldManager: w.fieldManager, fieldValidation: w.fieldValidation });
}
