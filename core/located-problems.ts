// Start-up problems with flag values, told where the values came from: a value from a config file
// names the file and field (flags.sourceOf) and is a config problem (exit 1); one from the command
// line is a usage problem (exit 2), as the flag's own parse errors are. A problem about several
// values names each one's source, and is a usage problem as soon as one came from the command line
// (the command line can fix it alone, and the file may be shared by other invocations).
import type { FlagSet } from './flags/types.js';
import { StartupError } from './plugin.js';
import { aggregate } from './aggregate.js';

/** Problems about some flags, with the files and fields their values came from. */
export interface LocatedProblems {
  readonly problems: readonly string[];
  readonly inFile: boolean;
  readonly onCommandLine: boolean;
}

/**
 * `problems` about the flags `names`, each prefixed with where those values came from when a file
 * is among them (`cm.yaml: Generic.LeaderElection.leaseDuration, --leader-elect-renew-deadline
 * (command line): ...`); values from the command line alone need no prefix, defaults none.
 */
export function located(flags: FlagSet, problems: readonly string[], names: readonly string[]): LocatedProblems {
  const cli = names.filter((n) => flags.isSetOnCommandLine(n));
  const files = names.filter((n) => flags.isSetByOperator(n) && !flags.isSetOnCommandLine(n)).map((n) => flags.sourceOf(n));
  const where = [...files, ...(files.length ? cli.map((n) => `--${n} (command line)`) : [])];
  return {
    problems: where.length ? problems.map((p) => `${where.join(', ')}: ${p}`) : problems,
    inFile: files.length > 0,
    onCommandLine: cli.length > 0,
  };
}

/**
 * Marks an options error (a plugin's Validate), whichever copy of plat made it, as StartupError's
 * brand does: boot gathers these from the validation stages into one.
 */
const OPTIONS_ERROR = Symbol.for('plat.OptionsError');

/** Problems with option values (upstream's options Validate): what locatedError returns. */
export class OptionsError extends StartupError {
  constructor(readonly groups: readonly LocatedProblems[]) {
    const failing = groups.filter((g) => g.problems.length > 0);
    const usage = failing.some((g) => g.onCommandLine) || !failing.some((g) => g.inFile);
    super(aggregate(failing.flatMap((g) => g.problems)), usage ? 2 : 1);
    Object.defineProperty(this, OPTIONS_ERROR, { value: true });
  }
}

export const isOptionsError = (e: unknown): e is OptionsError =>
  typeof e === 'object' && e !== null && (e as { [OPTIONS_ERROR]?: unknown })[OPTIONS_ERROR] === true
  && Array.isArray((e as { groups?: unknown }).groups);

/**
 * One StartupError for all the groups' problems (undefined when there are none), in one line as
 * upstream's options Validate returns them (utilerrors.NewAggregate). Exit 2 when any problem
 * involves the command line, else 1 when one involves a file. Thrown from a configure tap at a
 * VALIDATION_STAGE, it is gathered with the other plugins' (core/options-validation.ts).
 */
export function locatedError(groups: readonly LocatedProblems[]): OptionsError | undefined {
  const failing = groups.filter((g) => g.problems.length > 0);
  return failing.length === 0 ? undefined : new OptionsError(failing);
}
