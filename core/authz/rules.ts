// What an authorizer would allow one user in one namespace (upstream's authorizer.RuleResolver),
// for SelfSubjectRulesReview and `kubectl auth can-i --list`. An authorizer answers the `rulesFor`
// hook beside its `authorize` tap, under the same tap name; rules-union.ts combines the answers.
import type { UserInfo } from '../authn/user.js';

/** The question: the user's rules in `namespace` (never empty: the review refuses that). */
export interface RulesQuery {
  readonly user: UserInfo;
  readonly namespace: string;
}

/** authorizer.ResourceRuleInfo; an empty or missing list is written as absent, as upstream's omitempty. */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

/** authorizer.NonResourceRuleInfo. */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/**
 * One authorizer's answer (RulesFor's four results): the rules it would allow, `incomplete` when it
 * cannot list all of them (a webhook, the Node authorizer for a node), and `error` when something
 * went wrong finding them (the rules found still count); several errors are one aggregate, given
 * as a list (the union flattens it into its own, as upstream's Aggregate does). Every field may be
 * left out.
 */
export interface UserRules {
  readonly resourceRules?: readonly ResourceRuleInfo[];
  readonly nonResourceRules?: readonly NonResourceRuleInfo[];
  readonly incomplete?: boolean;
  readonly error?: string | readonly string[];
}

/** The combined answer of the chain, as a SelfSubjectRulesReview's status carries it. */
export interface ChainRules {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  readonly incomplete: boolean;
  /** utilerrors.NewAggregate of the authorizers' errors; undefined when none. */
  readonly error?: string;
}

/** AlwaysAllow's answer: everything, on every path. */
export const ALL_RULES: UserRules = Object.freeze({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});

/** An authorizer that allows nothing by rules (AlwaysDeny), or nothing to this user. */
export const NO_RULES: UserRules = Object.freeze({});

/** What an authorizer that cannot enumerate its rules answers (upstream's webhook and node words). */
export const cannotListRules = (what: string): UserRules => ({ incomplete: true, error: `${what} does not support user rule resolution` });
