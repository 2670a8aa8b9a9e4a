// What `plat ca|token|auth` answer before running a subcommand, as `plat` answers before a role:
// help asked for is printed on stdout (exit 0), no subcommand prints the usage (exit 2), an unknown
// one is named on stderr (exit 2). Scripts test `--help` by its exit code.
const isHelp = (a: string | undefined) => a === '--help' || a === '-h';

/** The exit code when the command line asks for no subcommand to run, else undefined. */
export function subcommandUsage(command: string, argv: readonly string[], usage: string, subs: readonly string[]): number | undefined {
  const [sub, ...rest] = argv;
  if (sub === 'help' || isHelp(sub) || (sub !== undefined && subs.includes(sub) && rest.some(isHelp))) {
    process.stdout.write(usage);
    return 0;
  }
  if (sub === undefined) { process.stdout.write(usage); return 2; }
  if (!subs.includes(sub)) { process.stderr.write(`plat ${command}: unknown command "${sub}"\n${usage}`); return 2; }
  return undefined;
}
