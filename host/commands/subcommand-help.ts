// `plat <group> <sub> --help`: the subcommand's own help, laid out as kubectl's help template
// (templates.MainUsageTemplate) lays it out: the description, Examples, Options, Usage. The flags
// are listed with the renderer `plat <role> --help` uses (pflag's layout, with each flag's type),
// where kubectl writes `--name=default:` lines; and all of them, the kubeconfig and impersonation
// flags too, since plat has no `plat options` to send the reader to.
import { Flags } from '../../core/flags/flag-set.js';
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

/**
 * Whether `argv` asks for help, as cobra decides: --help or -h anywhere among the flags wins over
 * missing or extra arguments and over values only the command itself would refuse (an -o format,
 * a too short --duration), but not over a flag line pflag cannot parse (an unknown flag, a value
 * of the wrong type, a flag without its value): that FlagError is thrown, as cobra reports it
 * instead of the help (`kubectl certificate approve --bogus --help` says `unknown flag: --bogus`).
 * Thrown from here, where --help is a flag, it names the flag at fault even after a --help.
 */
export function helpRequested(h: SubcommandHelp, argv: readonly string[]): boolean {
  const probe = new Flags();
  for (const spec of h.flags().specs()) probe.define(parsingOnly(spec));
  probe.define({ name: 'help', shorthand: 'h', type: 'bool', default: false, section: 'help', help: 'help' });
  probe.parse(argv);
  return probe.get<boolean>('help');
}
