// computeReconciledRole's aggregationRule cases (component-helpers reconcile_role.go, union mode as
// the API server's start-up reconciliation runs it), against the pure reconcileRole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconcileRole } from '../../plugins/rbac/reconcile.js';
import type { AggregationRule, ClusterRole } from '../../plugins/rbac/types.js';

const role = (aggregationRule?: AggregationRule): ClusterRole => ({
  apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'r' },
  rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], ...(aggregationRule ? { aggregationRule } : {}),
});
const sel = (k: string) => ({ matchLabels: { [k]: 'true' } });

describe('reconcileRole: aggregationRule', () => {
  const cases: [string, AggregationRule | undefined, AggregationRule | undefined, 'update' | 'none', AggregationRule | undefined][] = [
    // [name, existing, expected, operation, result]
    ['neither aggregated', undefined, undefined, 'none', undefined],
    ['a user\'s aggregation on a role not expected to have one is removed', { clusterRoleSelectors: [sel('a')] }, undefined, 'update', undefined],
    ['expected aggregation is added', undefined, { clusterRoleSelectors: [sel('a')] }, 'update', { clusterRoleSelectors: [sel('a')] }],
    ['missing selectors are appended, extra ones kept', { clusterRoleSelectors: [sel('x'), sel('a')] }, { clusterRoleSelectors: [sel('a'), sel('b')] },
      'update', { clusterRoleSelectors: [sel('x'), sel('a'), sel('b')] }],
    ['covered: nothing to do', { clusterRoleSelectors: [sel('b'), sel('a')] }, { clusterRoleSelectors: [sel('a')] }, 'none', { clusterRoleSelectors: [sel('b'), sel('a')] }],
    ['semantic equality: an empty list is a missing one', { clusterRoleSelectors: [{ ...sel('a'), matchExpressions: [] }] },
      { clusterRoleSelectors: [sel('a')] }, 'none', { clusterRoleSelectors: [{ ...sel('a'), matchExpressions: [] }] }],
    ['expressions compared with their values', { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['1'] }] }] },
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['2'] }] }] }, 'update',
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['1'] }] }, { matchExpressions: [{ key: 'k', operator: 'In', values: ['2'] }] }] }],
  ];
  for (const [name, existing, expected, operation, result] of cases) {
    it(name, () => {
      const r = reconcileRole(role(existing), role(expected));
      assert.equal(r.operation, operation);
      assert.deepEqual(r.object.aggregationRule, result);
      assert.equal('aggregationRule' in r.object, result !== undefined);
    });
  }
});
