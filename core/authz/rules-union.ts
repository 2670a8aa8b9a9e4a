// The authorizer chain's rules combined as upstream's unionAuthzRulesHandler combines its
// RuleResolvers: every authorizer's rules concatenated in chain order, incomplete when any says so,
// the errors joined as one aggregate. The chain is the `authorize` hook's taps: each answers through
// a `rulesFor` tap of the same name (the i-th `authorize` tap of a name pairs with the i-th
// `rulesFor` tap of that name). An authorizer without one cannot say what it allows, as upstream's
// webhook cannot: the answer is then incomplete, with an error naming it. A `rulesFor` tap that
// throws counts the same way (its rules are unknown), which upstream, whose RulesFor returns its
// errors, never meets. A `rulesFor` tap with no `authorize` tap beside it is not in the chain, and
// what it says is not asked: its rules allow nothing.
import type * as tapable from 'tapable';
import { aggregate } from '../aggregate.js';
import { aroundTap } from '../around-tap.js';
import { goQuote } from '../go-quote.js';
import type { AuthorizeHook } from './union.js';
import { cannotListRules, NO_RULES, type ChainRules, type NonResourceRuleInfo, type ResourceRuleInfo, type RulesQuery, type UserRules } from './rules.js';

/** One `rulesFor` tap's answer in one call, or what it threw. */
export type RulesAnswer = { readonly tap: string; readonly rules: UserRules } | { readonly tap: string; readonly error: unknown };
/** The answers of one call, in tap order: the hook's second argument, filled by the interceptor below. */
export type RulesAnswers = RulesAnswer[];

export type RulesForHook = tapable.AsyncSeriesBailHook<[RulesQuery, RulesAnswers], UserRules | undefined>;

/**
 * Installed once on the hook by its owner (core/hooks.ts): every tap's answer (undefined: no rules)
 * or error is noted in the call's list and the hook goes on, so that every authorizer is asked.
 */
export function collectRules(hook: RulesForHook): void {
  hook.intercept({
    register: (tap) => aroundTap(tap, {
      answer: (args, rules) => { (args[1] as RulesAnswers).push({ tap: tap.name, rules: (rules as UserRules | undefined) ?? NO_RULES }); return undefined; },
      failed: (args, error) => { (args[1] as RulesAnswers).push({ tap: tap.name, error }); return undefined; },
    }),
  });
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** unionAuthzRulesHandler.RulesFor over the chain. */
export async function rulesForUnion(authorize: AuthorizeHook, rulesFor: RulesForHook, query: RulesQuery): Promise<ChainRules> {
  const answers: RulesAnswers = [];
  await rulesFor.promise(query, answers);
  const queues = new Map<string, RulesAnswer[]>();
  for (const a of answers) queues.set(a.tap, [...(queues.get(a.tap) ?? []), a]);

  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  const errors: string[] = [];
  let incomplete = false;
  // tapable keeps taps sorted by stage: the chain's order.
  for (const t of authorize.taps) {
    const answer = queues.get(t.name)?.shift() ?? { tap: t.name, rules: cannotListRules(`authorizer ${goQuote(t.name)}`) };
    if ('error' in answer) {
      incomplete = true;
      errors.push(errorText(answer.error));
      continue;
    }
    const r = answer.rules;
    resourceRules.push(...(r.resourceRules ?? []));
    nonResourceRules.push(...(r.nonResourceRules ?? []));
    if (r.incomplete) incomplete = true;
    // An aggregate inside is flattened into the union's, as utilerrors' Aggregate visits nested ones.
    if (r.error !== undefined) errors.push(...(typeof r.error === 'string' ? [r.error] : r.error));
  }
  return { resourceRules, nonResourceRules, incomplete, ...(errors.length ? { error: aggregate(errors) } : {}) };
}
