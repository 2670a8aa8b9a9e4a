// Upstream's ClusterRoleAggregationController (pkg/controller/clusterroleaggregation): a ClusterRole
// with an aggregationRule holds the union of the rules of every other ClusterRole its selectors
// match. The graph of roles is small and unknown (an aggregated role may itself be aggregated, as
// `view` into `edit` into `admin`), so every ClusterRole event queues every aggregating role, and
// a chain settles one link a sync. The rules are written by server-side apply, forced, as field
// manager `clusterrole-aggregation-controller`: the controller owns `rules` and nothing else.
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import type { ClusterRole, PolicyRule } from '../../core/api/rbac.js';
import { labelSelectorFromObject } from '../../core/api/selectors/label-selector.js';
import { isApiError, objectPath, type ResourceRef } from '../../core/client/rest-client.js';
import { defaultControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { runSyncedWorkers } from '../../core/controller/workers.js';
import { WorkQueue } from '../../core/controller/workqueue.js';

const RBAC_GROUP = 'rbac.authorization.platform';
export const CLUSTER_ROLES: ResourceRef = { group: RBAC_GROUP, version: 'v1', plural: 'clusterroles', kind: 'ClusterRole' };
/** Server-side apply's patch type (the API server's patch decoding is not the client's to load). */
const APPLY_PATCH = 'application/apply-patch+yaml';
/** The field manager of its applies. */
export const FIELD_MANAGER = 'clusterrole-aggregation-controller';

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** equality.Semantic.DeepEqual of two lists: a missing list is an empty one, order counts. */
const sameList = <T>(a: readonly T[] | null | undefined, b: readonly T[] | null | undefined, same: (x: T, y: T) => boolean): boolean =>
  (a?.length ?? 0) === (b?.length ?? 0) && (a ?? []).every((x, i) => same(x, b![i]!));

const sameRule = (a: PolicyRule, b: PolicyRule): boolean => RULE_FIELDS.every((f) => sameList(a[f], b[f], (x, y) => x === y));

/**
 * The same rules in any order (each list holds a rule once). Upstream compares in order, so two
 * roles that aggregate each other can rewrite each other's order for ever when their syncs run
 * together, each from the other's last order: with five workers on one cache that happened at
 * every sync (20 writes a second). A role that already holds every rule is left as it is.
 */
const sameRules = (a: readonly PolicyRule[], b: readonly PolicyRule[] | null | undefined): boolean =>
  a.length === (b?.length ?? 0) && a.every((x) => b!.some((y) => sameRule(x, y)));

/**
 * The rules `role` should have (syncClusterRole): for each selector in turn, the rules of the
 * ClusterRoles it matches, by name, but `role` itself, each rule once (ruleExists).
 */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const s of role.aggregationRule?.clusterRoleSelectors ?? []) {
    // A selector that does not convert fails the sync (validation keeps such roles out).
    const selector = labelSelectorFromObject(s);
    const matching = all.filter((r) => selector.matches(r.metadata.labels)).sort((a, b) => byName(a.metadata.name, b.metadata.name));
    for (const other of matching) {
      if (other.metadata.name === role.metadata.name) continue;
      for (const rule of other.rules ?? []) if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

const byName = (a = '', b = ''): number => (a < b ? -1 : a > b ? 1 : 0);

/** toApplyPolicyRule: an apply configuration leaves out the lists a rule has none of. */
const applyRule = (rule: PolicyRule): PolicyRule =>
  Object.fromEntries(RULE_FIELDS.filter((f) => rule[f]?.length).map((f) => [f, rule[f]]));

export interface ClusterRoleAggregationOptions {
  /** Upstream runs five. */
  readonly workers: number;
}

export function clusterRoleAggregationController(ctx: ControllerContext, controllerName: string, o: ClusterRoleAggregationOptions): Runnable & { readonly queue: WorkQueue<string> } {
  const log = ctx.logger;
  const roles = ctx.informers.for<ClusterRole>(CLUSTER_ROLES);
  const queue = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'ClusterRoleAggregator', metrics: ctx.metrics });

  /** enqueue: every role that may need aggregating, whichever role changed. */
  const enqueue = (): void => {
    for (const r of roles.list()) if (r.aggregationRule) queue.add(r.metadata.name ?? '');
  };
  roles.addHandlers({ add: enqueue, update: enqueue, delete: enqueue });

  async function apply(name: string, rules: PolicyRule[], signal: AbortSignal): Promise<void> {
    // rbacv1ac.ClusterRole(name).WithRules(...): with no rules the field is left out, and the
    // forced apply that releases it removes what the controller wrote there.
    const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name }, ...(rules.length ? { rules: rules.map(applyRule) } : {}) };
    await ctx.client.request('PATCH', objectPath(CLUSTER_ROLES, name), { body, contentType: APPLY_PATCH, query: { fieldManager: FIELD_MANAGER, force: true }, signal });
  }

  /** syncClusterRole. */
  async function sync(name: string, signal: AbortSignal): Promise<void> {
    const role = roles.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, roles.list());
    if (sameRules(rules, role.rules)) return;
    try {
      await apply(name, rules, signal);
    } catch (e) {
      // A server without server-side apply: the whole role is updated instead, as upstream falls back.
      if (!isApiError(e, 'UnsupportedMediaType')) throw e;
      await ctx.client.update(CLUSTER_ROLES, { ...structuredClone(role), rules: rules.length ? rules : null }, undefined, { signal });
    }
  }

  return {
    queue,
    run: (signal: AbortSignal) => runSyncedWorkers({
      name: controllerName, queue, workers: o.workers, logger: log, synced: [roles], fence: ctx.fence,
      sync: (key) => sync(key, signal),
      failure: (key, error) => `${key} failed with : ${error}`,
    }, signal),
  };
}
