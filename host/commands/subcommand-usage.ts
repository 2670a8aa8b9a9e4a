// What `plat ca|token|auth` (and `plat csr`) answer before running a subcommand, as cobra answers
// for a command that only groups others (and `kubectl certificate`, which runs cmd.Help()): help
// asked for, or no subcommand at all, prints the usage on stdout (exit 0); an unknown one is named
// on stderr with the usage (exit 2). Scripts test `--help` by its exit code.
const isHelp = (a: string | undefined) => a === '--help' || a === '-h';

/** The exit code when the command line asks for no subcommand to run, else undefined. */
export function subcommandUsage(command: string, argv: readonly string[], usage: string, subs: readonly string[]): number | undefined {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || isHelp(sub) || (sub !== undefined && subs.includes(sub) && rest.some(isHelp))) {
    process.stdout.write(usage);
    return 0;
  }
  if (!subs.includes(sub)) { process.stderr.write(`plat ${command}: unknown command "${sub}"\n${usage}`); return 2; }
  return undefined;
}
