// RbacAuthorizer: authorization mode RBAC (plugin/pkg/auth/authorizer/rbac). Allows when a rule
// that applies to the user in the request's namespace allows the request, naming the binding in
// the reason; otherwise it has no opinion (RBAC never denies), and the chain goes on: with a
// reason only when a binding that applies names a role that cannot be read. Taps
// `authorize` only when RBAC is in the authorizer chain, at its position there. Its rules
// (rulesFor) are every rule of every binding that applies, in the resolver's order, uncompacted
// (kubectl's can-i --list compacts and sorts them): a rule with resources is a resource rule, one
// with URLs a non-resource rule; a role that cannot be read is an error, never incomplete.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
import type { NonResourceRuleInfo, ResourceRuleInfo, RulesQuery, UserRules } from '../../core/authz/rules.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { aggregateText, ruleResolverFor, type RuleResolver } from './resolver.js';
import { ruleAllows } from './rules.js';

const PLUGIN_NAME = 'RbacAuthorizer';
const MODE = 'RBAC';

export async function rbacDecision(resolver: RuleResolver, a: Attributes): Promise<Decision | undefined> {
  const unresolved: Error[] = [];
  for await (const v of resolver.visitRulesFor(a.user, a.namespace, 'lister')) {
    if ('error' in v) unresolved.push(v.error);
    else if (ruleAllows(a, v.rule)) return { decision: 'allow', reason: `RBAC: allowed by ${v.source}` };
  }
  return unresolved.length ? { decision: 'noOpinion', reason: `RBAC: ${aggregateText(unresolved)}` } : undefined;
}

/** RBACAuthorizer.RulesFor. */
export async function rbacRules(resolver: RuleResolver, q: RulesQuery): Promise<UserRules> {
  const { rules, errors } = await resolver.rulesFor(q.user, q.namespace, 'lister');
  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  for (const r of rules) {
    if (r.resources?.length) resourceRules.push({ verbs: r.verbs ?? [], ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}), resources: r.resources, ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}) });
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs });
  }
  return { resourceRules, nonResourceRules, ...(errors.length ? { error: errors.map((e) => e.message) } : {}) };
}

export const RbacAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      if (stage === undefined) return;
      const resolver = ruleResolverFor(host);
      host.hooks.authorize.tapPromise({ name: PLUGIN_NAME, stage }, (a) => rbacDecision(resolver, a));
      host.hooks.rulesFor.tapPromise({ name: PLUGIN_NAME, stage }, (q) => rbacRules(resolver, q));
    });
  },
};
