// Bootstrap-policy reconciliation (component-helpers/auth/rbac/reconciliation, in union mode as the
// API server runs it): missing objects are created; an existing one gets the expected labels and
// annotations it lacks and the rules or subjects it is missing, and keeps everything a user added
// but an aggregationRule on a role the policy does not aggregate.
// A binding whose roleRef differs is recreated. Annotation autoupdate "false" leaves an object alone.
import { isDeepStrictEqual } from 'node:util';
import { hasReason } from '../../core/api/errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { Logger } from '../../core/log.js';
import type { RequestContext, ResourceStore } from '../../core/registry/store.js';
import { covers } from './rules.js';
import type { LabelSelectorObject } from '../../core/api/selectors/label-selector.js';
import { AUTOUPDATE_ANNOTATION, type AggregationRule, type ClusterRole, type PolicyRule, type RoleBinding, type Subject } from './types.js';

export type ReconcileOperation = 'create' | 'update' | 'recreate' | 'none';

export interface Reconciled<T> {
  readonly object: T;
  readonly operation: ReconcileOperation;
  /** The existing object opted out (autoupdate "false"): nothing is written. */
  readonly protected: boolean;
  readonly missing: readonly (PolicyRule | Subject)[];
}

/** Expected first, existing wins: a user's value for a key is kept. */
const merge = (expected: Record<string, string> | undefined, existing: Record<string, string> | undefined) => {
  const out = { ...(expected ?? {}), ...(existing ?? {}) };
  return Object.keys(out).length ? out : undefined;
};

function mergeMeta<T extends ApiObject>(existing: T, expected: T): { object: T; changed: boolean } {
  const object = structuredClone(existing);
  const annotations = merge(expected.metadata.annotations, existing.metadata.annotations);
  const labels = merge(expected.metadata.labels, existing.metadata.labels);
  if (annotations) object.metadata.annotations = annotations;
  if (labels) object.metadata.labels = labels;
  const changed = !isDeepStrictEqual(annotations, existing.metadata.annotations) || !isDeepStrictEqual(labels, existing.metadata.labels);
  return { object, changed };
}

const isProtected = (o: ApiObject): boolean => o.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

/**
 * computeReconciledRole: the missing rules (broken down, as Covers reports them) are appended; an
 * aggregationRule the expected role lacks is removed, one it has gets the selectors it is missing.
 */
export function reconcileRole(existing: ClusterRole, expected: ClusterRole): Reconciled<ClusterRole> {
  const { object, changed } = mergeMeta(existing, expected);
  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length) object.rules = [...(existing.rules ?? []), ...missing];
  const aggregation = reconcileAggregation(object, existing.aggregationRule, expected.aggregationRule);
  return { object, operation: changed || missing.length || aggregation ? 'update' : 'none', protected: isProtected(existing), missing };
}

/** equality.Semantic.DeepEqual of two LabelSelectors: a missing list or map is an empty one. */
function sameSelector(a: LabelSelectorObject, b: LabelSelectorObject): boolean {
  const ea = a.matchExpressions ?? [], eb = b.matchExpressions ?? [];
  return isDeepStrictEqual(a.matchLabels ?? {}, b.matchLabels ?? {}) && ea.length === eb.length && ea.every((x, i) =>
    x.key === eb[i]!.key && x.operator === eb[i]!.operator && isDeepStrictEqual(x.values ?? [], eb[i]!.values ?? []));
}

/** aggregationRuleCovers, then the union case of computeReconciledRole; true when `object` changed. */
function reconcileAggregation(object: ClusterRole, existing: AggregationRule | undefined, expected: AggregationRule | undefined): boolean {
  if (!expected) {
    if (!existing) return false;
    // Not expected to be aggregated at all: the aggregation goes.
    delete object.aggregationRule;
    return true;
  }
  const have = existing?.clusterRoleSelectors ?? [];
  const missing = (expected.clusterRoleSelectors ?? []).filter((x) => !have.some((h) => sameSelector(h, x)));
  if (!missing.length) return false;
  object.aggregationRule = { ...(existing ?? {}), clusterRoleSelectors: [...have, ...missing] };
  return true;
}

const sameSubject = (a: Subject, b: Subject): boolean =>
  (a.kind ?? '') === (b.kind ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.name ?? '') === (b.name ?? '') && (a.namespace ?? '') === (b.namespace ?? '');

/** computeReconciledRoleBinding: another roleRef means recreate; missing subjects are appended. */
export function reconcileBinding(existing: RoleBinding, expected: RoleBinding): Reconciled<RoleBinding> {
  const prot = isProtected(existing);
  const e = existing.roleRef ?? {}, x = expected.roleRef ?? {};
  if ((e.apiGroup ?? '') !== (x.apiGroup ?? '') || (e.kind ?? '') !== (x.kind ?? '') || (e.name ?? '') !== (x.name ?? '')) {
    return { object: expected, operation: 'recreate', protected: prot, missing: expected.subjects ?? [] };
  }
  const { object, changed } = mergeMeta(existing, expected);
  const have = existing.subjects ?? [];
  const missing: Subject[] = [];
  for (const s of expected.subjects ?? []) if (!have.some((h) => sameSubject(h, s)) && !missing.some((m) => sameSubject(m, s))) missing.push(s);
  if (missing.length) object.subjects = [...have, ...missing];
  return { object, operation: changed || missing.length ? 'update' : 'none', protected: prot, missing };
}

const MAX_ATTEMPTS = 4;

/**
 * Brings one expected object into the store (cluster-scoped, by name). Writes go through the
 * generic store as `ctx.user`, so validation applies; races with other writers are retried.
 */
export async function reconcileObject<T extends ApiObject>(store: ResourceStore, ctx: RequestContext, expected: T,
  compute: (existing: T, expected: T) => Reconciled<T>): Promise<Reconciled<T>> {
  const name = expected.metadata.name!;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let existing: T;
    try {
      existing = await store.get(ctx.namespace, name) as T;
    } catch (e) {
      if (!hasReason(e, 'NotFound')) throw e;
      try {
        const created = await store.create(ctx, structuredClone(expected));
        return { object: created as T, operation: 'create', protected: false, missing: [] };
      } catch (err) {
        if (hasReason(err, 'AlreadyExists')) continue;
        throw err;
      }
    }
    const result = compute(existing, expected);
    if (result.protected || result.operation === 'none') return result;
    try {
      if (result.operation === 'recreate') {
        await store.delete(ctx, name, { uid: existing.metadata.uid ?? '' });
        const created = await store.create(ctx, structuredClone(expected));
        return { ...result, object: created as T };
      }
      // Pinned to the version read: a concurrent change is a conflict, and the loop starts over.
      const updated = await store.update(ctx, name, '', () => ({ ...result.object, metadata: { ...result.object.metadata, resourceVersion: existing.metadata.resourceVersion! } }));
      return { ...result, object: updated.object as T };
    } catch (err) {
      if (hasReason(err, 'Conflict') || hasReason(err, 'NotFound') || hasReason(err, 'AlreadyExists')) continue;
      throw err;
    }
  }
  throw new Error(`exceeded maximum attempts reconciling ${store.qualified.resource} "${name}"`);
}

/** Reconciles a whole list, logging each outcome as upstream does; one failure does not stop the rest. */
export async function reconcileAll<T extends ApiObject>(store: ResourceStore, ctx: RequestContext, expected: readonly T[],
  compute: (existing: T, expected: T) => Reconciled<T>, log: Logger): Promise<number> {
  let failures = 0;
  const what = `${store.def.singular}.${store.def.group}`;
  for (const obj of expected) {
    const name = obj.metadata.name!;
    try {
      const r = await reconcileObject(store, ctx, obj, compute);
      if (r.protected && r.operation !== 'none') log.warn(`skipped reconcile-protected ${what}/${name} with missing ${store.def.kind.endsWith('Binding') ? 'subjects' : 'permissions'}`, { missing: r.missing });
      else if (r.operation !== 'none') log.v(2).info(`${r.operation === 'create' ? 'created' : r.operation === 'recreate' ? 'recreated' : 'updated'} ${what}/${name}`, r.operation === 'update' ? { added: r.missing } : undefined);
    } catch (e) {
      failures++;
      log.error(`unable to reconcile ${what}/${name}`, { error: (e as Error).message });
    }
  }
  return failures;
}
