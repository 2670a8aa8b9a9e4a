// The part of upstream's ServerRunOptions.Validate that checks the handler chain's filter flags,
// in its order (--goaway-chance, then the HSTS directives, then the CORS origins), each problem
// told where its value came from. Checked after parsing, as options errors, in upstream's words.
import type { FlagSet } from '../flags/types.js';
import { located, type LocatedProblems } from '../located-problems.js';
import { CORS_FLAG, corsAllowedOriginsProblems } from './cors.js';
import { GOAWAY_CHANCE_FLAG, goawayChanceProblems } from './goaway.js';
import { HSTS_FLAG, hstsDirectivesProblems } from './hsts.js';

export function filterFlagsProblems(flags: FlagSet): LocatedProblems[] {
  return [
    located(flags, goawayChanceProblems(flags.get<number>(GOAWAY_CHANCE_FLAG)), [GOAWAY_CHANCE_FLAG]),
    located(flags, hstsDirectivesProblems(flags.get<string[]>(HSTS_FLAG)), [HSTS_FLAG]),
    located(flags, corsAllowedOriginsProblems(flags.get<string[]>(CORS_FLAG)), [CORS_FLAG]),
  ];
}
