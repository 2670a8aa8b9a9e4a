// Upstream's ServerRunOptions.Validate for the flags plat serves, in its order (the two in-flight
// limits, --request-timeout, --goaway-chance, --min-request-timeout, the two shutdown durations, then the HSTS directives and
// the CORS origins), each problem told where its value came from. Checked after parsing, as options
// errors, in upstream's words, all of them in one aggregate.
import type { FlagSet } from '../flags/types.js';
import { located, type LocatedProblems } from '../located-problems.js';
import { CORS_FLAG, corsAllowedOriginsProblems } from './cors.js';
import { GOAWAY_CHANCE_FLAG, goawayChanceProblems } from './goaway.js';
import { HSTS_FLAG, hstsDirectivesProblems } from './hsts.js';
import { MAX_MUTATING_REQUESTS_INFLIGHT_FLAG, MAX_REQUESTS_INFLIGHT_FLAG } from './max-in-flight-options.js';

/** A flag whose negative value upstream refuses, with its text (the watch grace period's is worded apart). */
const NOT_NEGATIVE: ReadonlyArray<readonly [string, string]> = [
  ['min-request-timeout', '--min-request-timeout can not be negative value'],
  ['shutdown-delay-duration', '--shutdown-delay-duration can not be negative value'],
  ['shutdown-watch-termination-grace-period', 'shutdown-watch-termination-grace-period, if provided, can not be a negative value'],
];

const negative = (flags: FlagSet, name: string, text: string): LocatedProblems =>
  located(flags, flags.has(name) && flags.get<number>(name) < 0 ? [text] : [], [name]);

export function serverRunOptionsProblems(flags: FlagSet): LocatedProblems[] {
  return [
    negative(flags, MAX_REQUESTS_INFLIGHT_FLAG, '--max-requests-inflight can not be negative value'),
    negative(flags, MAX_MUTATING_REQUESTS_INFLIGHT_FLAG, '--max-mutating-requests-inflight can not be negative value'),
    negative(flags, 'request-timeout', '--request-timeout can not be negative value'),
    located(flags, goawayChanceProblems(flags.get<number>(GOAWAY_CHANCE_FLAG)), [GOAWAY_CHANCE_FLAG]),
    ...NOT_NEGATIVE.map(([name, text]) => negative(flags, name, text)),
    located(flags, hstsDirectivesProblems(flags.get<string[]>(HSTS_FLAG)), [HSTS_FLAG]),
    located(flags, corsAllowedOriginsProblems(flags.get<string[]>(CORS_FLAG)), [CORS_FLAG]),
  ];
}
