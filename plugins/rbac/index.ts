// RbacPlugin: the rbac.authorization.platform/v1 API (Role, RoleBinding, ClusterRole,
// ClusterRoleBinding), privilege-escalation prevention on its writes, and the bootstrap policy
// reconciled at start-up. Served whatever the authorization mode, as upstream; the RBAC mode
// itself is RbacAuthorizer.
import { MASTERS_GROUP } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { RequestContext, ResourceStore } from '../../core/registry/store.js';
import { servedStore } from '../../core/registry/stores.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles, SYSTEM_NAMESPACE } from './bootstrap-policy.js';
import { escalationCheck } from './escalation.js';
import { primeAggregatedClusterRoles } from './prime-aggregated.js';
import { reconcileAll, reconcileBinding, reconcileRole } from './reconcile.js';
import { ruleResolverFor } from './resolver.js';
import { rbacResources } from './resources.js';
import { RBAC_GROUP, RBAC_VERSION } from './types.js';

export { RbacAuthorizer } from './authorizer.js';

const PLUGIN_NAME = 'RbacPlugin';

/** The API server's own identity for the writes it makes (upstream's loopback client is a master too). */
const SYSTEM_USER = { name: 'system:apiserver', groups: [MASTERS_GROUP] };

/** After every other mutating admission plugin: the check sees the object that will be validated and stored. */
const ESCALATION_STAGE = Number.MAX_SAFE_INTEGER;
/** After the API server opened storage (stage 0) and the initial namespaces exist (stage 10). */
const BOOTSTRAP_STAGE = 20;

export const RbacPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => { for (const def of rbacResources) registry.register(def); });

    host.hooks.admitMutate.tapPromise({ name: 'RbacEscalationCheck', stage: ESCALATION_STAGE }, escalationCheck(ruleResolverFor(host), host.logger.child('rbac')));

    host.hooks.start.tapPromise({ name: PLUGIN_NAME, stage: BOOTSTRAP_STAGE }, async () => {
      const store = (plural: string): ResourceStore | undefined => servedStore(host, RBAC_GROUP, RBAC_VERSION, plural);
      const roles = store('clusterroles');
      const bindings = store('clusterrolebindings');
      const nsRoles = store('roles');
      const nsBindings = store('rolebindings');
      if (!roles || !bindings || !nsRoles || !nsBindings) return;
      const log = host.logger.child('rbac');
      const ctx: RequestContext = { user: SYSTEM_USER, namespace: '', dryRun: false, warnings: [] };
      const nsCtx: RequestContext = { ...ctx, namespace: SYSTEM_NAMESPACE };
      // A failure here is no reason to leave the policy unreconciled: the roles it would have kept are the user's to restore.
      await primeAggregatedClusterRoles(roles, ctx, log).catch((e: unknown) => log.error('unable to prime aggregated clusterroles', { error: (e as Error).message }));
      const failed = await reconcileAll(roles, ctx, bootstrapClusterRoles(), reconcileRole, log)
        + await reconcileAll(bindings, ctx, bootstrapClusterRoleBindings(), reconcileBinding, log)
        + await reconcileAll(nsRoles, nsCtx, bootstrapNamespaceRoles(), reconcileRole, log)
        + await reconcileAll(nsBindings, nsCtx, bootstrapNamespaceRoleBindings(), reconcileBinding, log);
      if (failed) log.error('the bootstrap policy is incomplete: requests it would allow are refused until it is reconciled', { failed });
    });
  },
};
