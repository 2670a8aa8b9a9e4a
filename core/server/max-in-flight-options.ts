// The flags of the max-in-flight filter (max-in-flight.ts) and of the priority and fairness it
// stands in for. Upstream with priority and fairness on (the default) sums the two limits into
// that filter's server concurrency; plat has no priority and fairness, so it cannot do what the
// limits then mean: given with it on, they are refused, naming the switch that makes them work.
// Without either, plat serves with no limiter at all, as before. Their negative values are
// ServerRunOptions.Validate's (server-run-options.ts).
import type { FlagSet } from '../flags/types.js';
import { located, type LocatedProblems } from '../located-problems.js';
import type { InFlightLimits } from './max-in-flight.js';

export const MAX_REQUESTS_INFLIGHT_FLAG = 'max-requests-inflight';
export const MAX_MUTATING_REQUESTS_INFLIGHT_FLAG = 'max-mutating-requests-inflight';
export const PRIORITY_AND_FAIRNESS_FLAG = 'enable-priority-and-fairness';

export const LIMITS_NEED_NO_FAIRNESS = `--${MAX_REQUESTS_INFLIGHT_FLAG} and --${MAX_MUTATING_REQUESTS_INFLIGHT_FLAG} can not be used with priority and fairness enabled: `
  + `upstream sums them into its concurrency limit, and plat has no priority and fairness; set --${PRIORITY_AND_FAIRNESS_FLAG}=false to limit the requests in flight with them`;

/** The limits given while priority and fairness is on: plat's refusal, told where they came from. */
export function limitsWithFairnessProblems(flags: FlagSet): LocatedProblems {
  const given = [MAX_REQUESTS_INFLIGHT_FLAG, MAX_MUTATING_REQUESTS_INFLIGHT_FLAG].filter((n) => flags.isSetByOperator(n));
  const refused = flags.get<boolean>(PRIORITY_AND_FAIRNESS_FLAG) && given.length > 0;
  return located(flags, refused ? [LIMITS_NEED_NO_FAIRNESS] : [], [...given, PRIORITY_AND_FAIRNESS_FLAG]);
}

/** The filter's limits when it is installed (priority and fairness off), else undefined. */
export function maxInFlightLimits(flags: FlagSet): InFlightLimits | undefined {
  if (flags.get<boolean>(PRIORITY_AND_FAIRNESS_FLAG)) return undefined;
  return { readOnly: flags.get<number>(MAX_REQUESTS_INFLIGHT_FLAG), mutating: flags.get<number>(MAX_MUTATING_REQUESTS_INFLIGHT_FLAG) };
}
