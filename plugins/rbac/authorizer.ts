// RbacAuthorizer: authorization mode RBAC (plugin/pkg/auth/authorizer/rbac). Allows when a rule
// that applies to the user in the request's namespace allows the request, naming the binding in
// the reason; otherwise it has no opinion (RBAC never denies), and the chain goes on: with a
// reason only when a binding that applies names a role that cannot be read. Taps
// `authorize` only when RBAC is in the authorizer chain, at its position there.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
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

export const RbacAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      if (stage === undefined) return;
      const resolver = ruleResolverFor(host);
      host.hooks.authorize.tapPromise({ name: PLUGIN_NAME, stage }, (a) => rbacDecision(resolver, a));
    });
  },
};
