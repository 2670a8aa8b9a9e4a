// What `plat ca|token|auth` (and `plat csr`) answer before running a subcommand, as cobra answers
// for a command that only groups others (and `kubectl certificate`, which runs cmd.Help()): help
// asked for, or no subcommand at all, prints the usage on stdout (exit 0); an unknown one is named
// on stderr with the usage (exit 2). A known subcommand asked for help prints its own instead.
// Scripts test `--help` by its exit code.
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { defineHelp, helpRequested, subcommandHelpText, type SubcommandHelp } from './subcommand-help.js';

/**
 * Flags before any subcommand: the group's own, which is cobra's --help alone. Whatever its value
 * (`--help=false` too: a group does nothing but print its usage) the usage is printed, exit 0; any
 * other flag is a parse error with kubectl's hint (`See 'plat csr --help' for usage.`), exit 2.
 * Undefined when a subcommand name follows (left to the dispatch below).
 */
function groupFlags(command: string, argv: readonly string[], usage: string): number | undefined {
  const probe = new Flags();
  defineHelp(probe);
  let positional: string[];
  try {
    ({ positional } = probe.parse(argv));
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`plat ${command}: ${e.message}\nSee 'plat ${command} --help' for usage.\n`);
    return e.exitCode;
  }
  if (positional.length !== 0 && !probe.get<boolean>('help')) return undefined;
  process.stdout.write(usage);
  return 0;
}

/**
 * The exit code when the command line asks for no subcommand to run, else undefined. A known
 * subcommand asked for help prints its own (subcommand-help.ts).
 */
export function subcommandUsage(command: string, argv: readonly string[], usage: string, subs: Readonly<Record<string, SubcommandHelp>>): number | undefined {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  if (sub.startsWith('-') && sub !== '-') {
    const answered = groupFlags(command, argv, usage);
    if (answered !== undefined) return answered;
  }
  const help = Object.hasOwn(subs, sub) ? subs[sub] : undefined;
  if (!help) { process.stderr.write(`plat ${command}: unknown command "${sub}"\n${usage}`); return 2; }
  try {
    if (!helpRequested(help, rest, `plat ${command} ${sub}`)) return undefined;
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`plat ${command} ${sub}: ${e.message}\n`);
    return e.exitCode;
  }
  process.stdout.write(subcommandHelpText(help));
  return 0;
}
