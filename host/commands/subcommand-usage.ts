// What `plat ca|token|auth` (and `plat csr`) answer before running a subcommand, as cobra answers
// for a command that only groups others (and `kubectl certificate`, which runs cmd.Help()): help
// asked for, or no subcommand at all, prints the usage on stdout (exit 0); an unknown one is named
// on stderr with the usage (exit 2). A known subcommand asked for help prints its own instead.
// Scripts test `--help` by its exit code.
import { FlagError } from '../../core/flags/flag-set.js';
import { helpRequested, subcommandHelpText, type SubcommandHelp } from './subcommand-help.js';

const isHelp = (a: string | undefined) => a === '--help' || a === '-h';

/**
 * The exit code when the command line asks for no subcommand to run, else undefined. A known
 * subcommand asked for help prints its own (subcommand-help.ts).
 */
export function subcommandUsage(command: string, argv: readonly string[], usage: string, subs: Readonly<Record<string, SubcommandHelp>>): number | undefined {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || isHelp(sub)) {
    process.stdout.write(usage);
    return 0;
  }
  const help = Object.hasOwn(subs, sub) ? subs[sub] : undefined;
  if (!help) { process.stderr.write(`plat ${command}: unknown command "${sub}"\n${usage}`); return 2; }
  try {
    if (!helpRequested(help, rest)) return undefined;
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`plat ${command} ${sub}: ${e.message}\n`);
    return e.exitCode;
  }
  process.stdout.write(subcommandHelpText(help));
  return 0;
}
