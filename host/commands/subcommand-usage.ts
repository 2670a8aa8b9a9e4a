// What `plat ca|token|auth` (and `plat csr`) answer before running a subcommand, as cobra answers
// for a command that only groups others (and `kubectl certificate`, which runs cmd.Help()): help
// asked for, or no subcommand at all, prints the usage on stdout (exit 0); an unknown one is named
// on stderr with the usage (exit 2). A known subcommand asked for help prints its own instead.
// Scripts test `--help` by its exit code.
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { defineHelp, helpRequested, subcommandHelpText, type SubcommandHelp } from './subcommand-help.js';

/**
 * Where the subcommand's name is, as cobra's Find sees it (stripFlags; the group has no flags of
 * its own then, not even --help, which cobra adds only to the command it runs): the first word
 * that is not a flag, where `--name` and `-x` without `=` take the next word as their value and
 * `--` ends the search. -1 for none.
 */
function subcommandAt(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i]!;
    if (s === '--') return -1;
    if (!s.includes('=') && (s.startsWith('--') || (s.startsWith('-') && s.length === 2))) {
      if (argv.length - i - 1 <= 1) return -1;
      i++;
      continue;
    }
    if (s !== '' && !s.startsWith('-')) return i;
  }
  return -1;
}

/**
 * The subcommand's name and its command line: flags before the name go to the subcommand too
 * (cobra's argsMinusFirstX), so `plat csr --kubeconfig=k list` runs `list --kubeconfig=k`.
 */
export function splitSubcommand(argv: readonly string[]): [string | undefined, string[]] {
  const at = argv[0]?.startsWith('-') && argv[0] !== '-' ? subcommandAt(argv) : 0;
  if (at < 0) return [undefined, [...argv]];
  return [argv[at], [...argv.slice(0, at), ...argv.slice(at + 1)]];
}

/**
 * A flag line with no subcommand in it is the group's own, whose only flag is cobra's --help.
 * Whatever its value (`--help=false` too: a group does nothing but print its usage) the usage is
 * printed, exit 0; any other flag is a parse error with kubectl's hint (`See 'plat csr --help' for
 * usage.`), exit 2.
 */
function groupFlags(command: string, argv: readonly string[], usage: string): number {
  const probe = new Flags();
  defineHelp(probe);
  try {
    probe.parse(argv);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`plat ${command}: ${e.message}\nSee 'plat ${command} --help' for usage.\n`);
    return e.exitCode;
  }
  process.stdout.write(usage);
  return 0;
}

/**
 * The exit code when the command line asks for no subcommand to run, else undefined. A known
 * subcommand asked for help prints its own (subcommand-help.ts).
 */
export function subcommandUsage(command: string, argv: readonly string[], usage: string, subs: Readonly<Record<string, SubcommandHelp>>): number | undefined {
  if (argv.length === 0 || argv[0] === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const [sub, rest] = splitSubcommand(argv);
  if (sub === undefined) return groupFlags(command, argv, usage);
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
