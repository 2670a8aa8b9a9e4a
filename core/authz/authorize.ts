// Asking the authorizer chain from outside the request path: admission plugins checking a verb
// (approve, sign), RBAC's escalation check, the access-review APIs. Core owns the hook's call,
// and the `rulesFor` hook's (SelfSubjectRulesReview).
import type { Host } from '../host.js';
import type { Attributes, Decision } from './attributes.js';
import { rulesForUnion } from './rules-union.js';
import type { ChainRules, RulesQuery } from './rules.js';
import { authorizeUnion } from './union.js';

export function authorize(host: Host, attributes: Attributes): Promise<Decision | undefined> {
  return authorizeUnion(host.hooks.authorize, attributes);
}

/** True only for an explicit allow: deny and no opinion are both "no". */
export async function isAllowed(host: Host, attributes: Attributes): Promise<boolean> {
  return (await authorize(host, attributes))?.decision === 'allow';
}

/** What the chain would allow `query.user` in `query.namespace` (upstream's RuleResolver.RulesFor of the union). */
export function rulesFor(host: Host, query: RulesQuery): Promise<ChainRules> {
  return rulesForUnion(host.hooks.authorize, host.hooks.rulesFor, query);
}
