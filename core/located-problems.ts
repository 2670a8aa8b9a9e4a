// Start-up problems with flag values, told where the values came from: a value from a config file
// names the file and field (flags.sourceOf) and is a config problem (exit 1); one from the command
// line, or a default, is a usage problem (exit 2), as the flag's own parse errors are.
import type { FlagSet } from './flags/types.js';
import { StartupError } from './plugin.js';

/** Problems about some flags, with the files and fields their values came from. */
export interface LocatedProblems {
  readonly problems: readonly string[];
  readonly inFile: boolean;
}

/** `problems` about the flags `names`, each prefixed with the file fields among them. */
export function located(flags: FlagSet, problems: readonly string[], names: readonly string[]): LocatedProblems {
  const where = names.filter((n) => flags.isSetByOperator(n) && !flags.isSetOnCommandLine(n)).map((n) => flags.sourceOf(n));
  return { problems: where.length ? problems.map((p) => `${where.join(', ')}: ${p}`) : problems, inFile: where.length > 0 };
}

/** One StartupError for all the groups' problems (undefined when there are none); `hint` ends the message. */
export function locatedError(groups: readonly LocatedProblems[], hint = ''): StartupError | undefined {
  const problems = groups.flatMap((g) => g.problems);
  if (problems.length === 0) return undefined;
  return new StartupError(`${problems.join('\n')}${hint}`, groups.some((g) => g.problems.length && g.inFile) ? 1 : 2);
}
