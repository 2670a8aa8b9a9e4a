#!/usr/bin/env node
// The `plat` command: picks the role's profile, boots the host, and runs it until a signal.
import { Flags, FlagError } from '../core/flags/flag-set.js';
import { declareGlobalFlags, globalRequest, type GlobalRequest } from '../core/global-flags.js';
import { rawVersionLine, versionInfo, versionLine } from '../core/version.js';
import { splitSubcommand, subcommandUsage } from './commands/subcommand-usage.js';
import { exitAfterOutput } from './exit-after-output.js';
import { CommandError } from './commands/command-error.js';
import { VERSION } from './version.js';

// Each command and role is imported when it runs: a role's profile loads its plugins (the API
// server's are hundreds of modules), which `plat csr get` or `plat ca sign` has no use for.

const USAGE = `plat — the certificate-signing-request platform

Usage:
  plat <role> [flags]

Roles:
  apiserver            serve the certificates.platform API over HTTPS, state in embedded LMDB
  controller-manager   run the controllers (signing, approving, cleaning) against an API server
  all                  everything in one process under --data-dir, with a CA and an admin kubeconfig
  nodeagent            the per-node agent: node identity (certificates), registration, lease, endpoints

Commands:
  ca init | ca sign    an offline CA: make one, issue certificates from CSRs through the crypto core
  bench crypto         measure the crypto core against its peers (table, JSON, SVG chart)
  bench issue          measure CSR-to-certificate through plat all's API against cfssl serve
  bench nodeagents     measure many node agents against one API server
  token create         mint a bootstrap token (a Secret in plat-system) and print it
  auth can-i           may the kubeconfig's user do VERB on TYPE? prints yes or no
  snapshot save | status | restore
                       back up a running API server's store to a file, inspect one, restore one into a data dir
  csr create | get | list | approve | deny | wait
                       certificate signing requests through the API (--wait writes key and certificate)

Run 'plat <role> --help' for the flags of a role; 'plat --version' prints the version.
`;

async function runCa(argv: readonly string[]): Promise<number> {
  const { CA_HELP, CA_USAGE, caInit, caSign } = await import('./commands/ca.js');
  const usage = subcommandUsage('ca', argv, CA_USAGE, CA_HELP);
  if (usage !== undefined) return usage;
  const [sub, rest] = splitSubcommand(argv);
  try {
    process.stdout.write(sub === 'init' ? await caInit(rest) : (await caSign(rest)).stdout);
    return 0;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat ca ${sub}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}

async function runToken(argv: readonly string[]): Promise<number> {
  const { TOKEN_HELP, TOKEN_USAGE, tokenCreate } = await import('./commands/token.js');
  const usage = subcommandUsage('token', argv, TOKEN_USAGE, TOKEN_HELP);
  if (usage !== undefined) return usage;
  try {
    process.stdout.write(await tokenCreate(splitSubcommand(argv)[1]));
    return 0;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat token create: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}

async function runSnapshot(argv: readonly string[]): Promise<number> {
  const { SNAPSHOT_COMMANDS, SNAPSHOT_HELP, SNAPSHOT_USAGE } = await import('./commands/snapshot.js');
  const usage = subcommandUsage('snapshot', argv, SNAPSHOT_USAGE, SNAPSHOT_HELP);
  if (usage !== undefined) return usage;
  const [sub, rest] = splitSubcommand(argv);
  try {
    process.stdout.write(await SNAPSHOT_COMMANDS[sub!]!(rest));
    return 0;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat snapshot ${sub}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}

async function runAuth(argv: readonly string[]): Promise<number> {
  const { AUTH_HELP, AUTH_USAGE, authCanI } = await import('./commands/auth.js');
  const usage = subcommandUsage('auth', argv, AUTH_USAGE, AUTH_HELP);
  if (usage !== undefined) return usage;
  try {
    const { stdout, allowed } = await authCanI(splitSubcommand(argv)[1], (text) => process.stderr.write(text));
    process.stdout.write(stdout);
    return allowed ? 0 : 1;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat auth can-i: ${e.message}\n`);
      // kubectl's cmdutil.CheckErr: every error is exit 1, as a "no" (2 stays plat's command-line mistake).
      return e.exitCode;
    }
    throw e;
  }
}

/** What --version and --version=raw print: the version.Info /version serves, as verflag prints it. */
function versionText(request: 'version' | 'raw'): string {
  const info = versionInfo(VERSION);
  return `${request === 'raw' ? rawVersionLine(info) : versionLine(info)}\n`;
}

/** `plat --version`, `plat --help` without a role: the global flags alone. */
function roleless(argv: readonly string[]): number {
  const flags = new Flags();
  declareGlobalFlags(flags, 'plat', VERSION);
  let request: GlobalRequest | undefined;
  try {
    request = globalRequest(flags, flags.parse(argv).positional);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`plat: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (request === 'help') { process.stdout.write(USAGE); return 0; }
  if (request !== undefined) { process.stdout.write(versionText(request)); return 0; }
  process.stderr.write(USAGE);
  return 2;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [role, ...rest] = argv;
  if (!role) { process.stdout.write(USAGE); return 2; }
  if (role === 'help') { process.stdout.write(USAGE); return 0; }
  if (role.startsWith('-')) return roleless(argv);
  if (role === 'ca') return runCa(rest);
  if (role === 'token') return runToken(rest);
  if (role === 'auth') return runAuth(rest);
  if (role === 'snapshot') return runSnapshot(rest);
  if (role === 'bench') return (await import('./commands/bench.js')).runBench(rest);
  if (role === 'csr') return (await import('./commands/csr.js')).runCsr(rest);
  const { runRole } = await import('./run-role.js');
  return runRole(role, rest, { version: VERSION, usage: USAGE, versionText });
}

main(process.argv.slice(2)).then(exitAfterOutput, (e: unknown) => {
  process.stderr.write(`plat: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  exitAfterOutput(1);
});
