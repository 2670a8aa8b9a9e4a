// primeAggregatedClusterRoles (pkg/registry/rbac/rest/storage_rbac.go): before the bootstrap policy
// turns `admin`, `edit` and `view` into aggregated roles, a data directory made before they existed
// may hold a user's own role of that name. The aggregation controller would replace its rules, so
// they are first copied to the role that aggregates into it (`view` to `system:aggregate-to-view`),
// while that one does not exist yet; the reconciliation then adds the label and the default rules.
import { hasReason } from '../../core/api/errors.js';
import type { Logger } from '../../core/log.js';
import type { RequestContext, ResourceStore } from '../../core/registry/store.js';
import { RBAC_GROUP, type ClusterRole } from './types.js';

/** ClusterRolesToAggregate: the role that became aggregated, and where its own rules go. */
export const CLUSTER_ROLES_TO_AGGREGATE: Readonly<Record<string, string>> = {
  admin: 'system:aggregate-to-admin',
  edit: 'system:aggregate-to-edit',
  view: 'system:aggregate-to-view',
};

const found = async (store: ResourceStore, name: string): Promise<ClusterRole | undefined> => {
  try {
    return await store.get('', name) as ClusterRole;
  } catch (e) {
    if (hasReason(e, 'NotFound')) return undefined;
    throw e;
  }
};

export async function primeAggregatedClusterRoles(store: ResourceStore, ctx: RequestContext, log: Logger): Promise<void> {
  for (const [oldName, newName] of Object.entries(CLUSTER_ROLES_TO_AGGREGATE)) {
    if (await found(store, newName)) continue;
    const existing = await found(store, oldName);
    // Upstream returns here, leaving the other roles unprimed in an order Go's map makes random;
    // each role is looked at on its own instead.
    if (!existing || existing.aggregationRule) continue;
    log.v(1).info(`migrating ${oldName} to ${newName}`);
    const { labels, annotations } = existing.metadata;
    const copy: ClusterRole = {
      apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole',
      metadata: { name: newName, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
      rules: existing.rules ?? null,
    };
    try {
      await store.create(ctx, copy);
    } catch (e) {
      if (!hasReason(e, 'AlreadyExists')) throw e;
    }
  }
}
