// `plat <group> <sub> --help`: the subcommand's own help, laid out as kubectl's help template
// (templates.MainUsageTemplate) lays it out: the description, Examples, Options, Usage. The flags
// are listed with the renderer `plat <role> --help` uses (pflag's layout, with each flag's type),
// where kubectl writes `--name=default:` lines; and all of them, the kubeconfig and impersonation
// flags too, since plat has no `plat options` to send the reader to.
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { renderFlagLines } from '../../core/flags/help.js';
import type { FlagSpec } from '../../core/flags/types.js';

export interface SubcommandHelp {
  /** The usage line, from `plat`: `plat csr approve NAME... [options]`. */
  readonly use: string;
  /** What it does: a first line, then paragraphs if needed. */
  readonly long: string;
  /** kubectl's Examples block: `  # what` and `  plat ...` lines. */
  readonly examples?: string;
  /** The subcommand's flag set, defined and not parsed. */
  readonly flags: () => Flags;
}

const WIDTH = 100;

export function subcommandHelpText(h: SubcommandHelp): string {
  const specs = [...h.flags().specs()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts = [h.long.trim()];
  if (h.examples) parts.push(`Examples:\n${h.examples.trimEnd()}`);
  if (specs.length) parts.push(`Options:\n${renderFlagLines(specs, WIDTH)}`);
  parts.push(`Usage:\n  ${h.use}`);
  return `${parts.join('\n\n')}\n`;
}

/** The spec without the checks kubectl makes only when the command runs (Complete, Validate). */
function parsingOnly(spec: FlagSpec): FlagSpec {
  const { validate: _validate, enum: _enum, ...rest } = spec;
  return rest;
}

/** cobra's -h/--help, which every command has; a command that runs reads it as false (`--help=false`). */
export function defineHelp(f: Flags): void {
  f.define({ name: 'help', shorthand: 'h', type: 'bool', default: false, section: 'help', help: 'help' });
}

/**
 * The flag line parsed as pflag parses it, with none of the command's own checks, and with cobra's
 * --help; a parse error is followed by kubectl's hint (templates.FlagErrorFunc: `See '<command
 * path> --help' for usage.`).
 */
function parseFlagLine(path: string, flags: Flags, argv: readonly string[]): Flags {
  const probe = new Flags();
  for (const spec of flags.specs()) probe.define(parsingOnly(spec));
  defineHelp(probe);
  try {
    probe.parse(argv);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    throw new FlagError(`${e.message}\nSee '${path} --help' for usage.`);
  }
  return probe;
}

/**
 * Whether `argv` asks for help, as cobra decides: --help or -h anywhere among the flags wins over
 * missing or extra arguments and over values only the command itself would refuse (an -o format,
 * a too short --duration), but not over a flag line pflag cannot parse (an unknown flag, a value
 * of the wrong type, a flag without its value): that FlagError is thrown, as cobra reports it
 * instead of the help (`kubectl certificate approve --bogus --help` says `unknown flag: --bogus`).
 * Thrown from here, where --help is a flag, it names the flag at fault even after a --help.
 * `path` is the command's (`plat csr approve`), for the hint after a parse error.
 */
export function helpRequested(h: SubcommandHelp, argv: readonly string[], path: string): boolean {
  return parseFlagLine(path, h.flags(), argv).get<boolean>('help');
}

/**
 * A subcommand's command line, for running it: pflag's errors with kubectl's hint, then the
 * command's own checks (enum, validate) without it, as kubectl's Complete/Validate report theirs.
 * cobra's --help is accepted (run with `--help=false`, the command runs).
 */
export function parseSubcommand(path: string, f: Flags, argv: readonly string[]): { positional: string[] } {
  parseFlagLine(path, f, argv);
  if (!f.has('help')) defineHelp(f);
  return f.parse(argv);
}
