// What the ABAC policies allow one user in one namespace: upstream's PolicyList.RulesFor. Each
// policy whose subject matches and whose namespace is "*" or the one asked gives a resource rule
// (its apiGroup and resource) when it names a resource and a non-resource rule (its path) when it
// names a path; read-only policies give get/list/watch, others "*". Always complete.
import type { NonResourceRuleInfo, ResourceRuleInfo, RulesQuery, UserRules } from '../../core/authz/rules.js';
import type { Policy } from './policy-file.js';
import { subjectMatches } from './policy-match.js';

const verbsOf = (p: Policy): string[] => (p.readonly ? ['get', 'list', 'watch'] : ['*']);

export function policyRules(policies: readonly Policy[], q: RulesQuery): UserRules {
  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  for (const p of policies) {
    if (!subjectMatches(p, q.user) || (p.namespace !== '*' && p.namespace !== q.namespace)) continue;
    if (p.resource) resourceRules.push({ verbs: verbsOf(p), apiGroups: [p.apiGroup], resources: [p.resource] });
    if (p.nonResourcePath) nonResourceRules.push({ verbs: verbsOf(p), nonResourceURLs: [p.nonResourcePath] });
  }
  return { resourceRules, nonResourceRules };
}
