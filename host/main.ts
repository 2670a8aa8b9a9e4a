#!/usr/bin/env node
// The `plat` command: picks the role's profile, boots the host, and runs it until a signal.
import { readFileSync } from 'node:fs';
import { applyProfileDefaults, boot, declareFlags, helpSectionOrder, type Profile } from '../core/boot.js';
import { Flags } from '../core/flags/flag-set.js';
import { Host } from '../core/host.js';
import { exitRequested } from '../core/lifecycle.js';
import { createLogger } from '../core/log.js';
import { isStartupError } from '../core/plugin.js';
import { profiles, upcomingRoles } from './profiles.js';
import { CA_USAGE, caInit, caSign, CommandError } from './commands/ca.js';
import { TOKEN_USAGE, tokenCreate } from './commands/token.js';
import { AUTH_USAGE, authCanI } from './commands/auth.js';
import { runBench } from './commands/bench.js';
import { runCsr } from './commands/csr.js';
import { subcommandUsage } from './commands/subcommand-usage.js';
import { FlagError } from '../core/flags/flag-set.js';
import { describeAllInOne } from './roles/all.js';
import { declareGlobalFlags, GlobalFlagRequest, globalRequest, type GlobalRequest } from '../core/global-flags.js';
import { rawVersionLine, versionInfo, versionLine } from '../core/version.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
export const VERSION = pkg.version;

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
  csr create | get | list | approve | deny | wait
                       certificate signing requests through the API (--wait writes key and certificate)

Run 'plat <role> --help' for the flags of a role; 'plat --version' prints the version.
`;

/** Flags of a profile without starting anything (for --help). */
function describe(profile: Profile): Flags {
  const host = new Host({ role: profile.role, version: VERSION });
  for (const p of profile.plugins) p.apply(host, undefined);
  const flags = new Flags();
  declareFlags(host, profile, flags);
  applyProfileDefaults(profile, flags, { forHelp: true });
  return flags;
}

async function runCa(argv: readonly string[]): Promise<number> {
  const usage = subcommandUsage('ca', argv, CA_USAGE, ['init', 'sign']);
  if (usage !== undefined) return usage;
  const [sub, ...rest] = argv;
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
  const usage = subcommandUsage('token', argv, TOKEN_USAGE, ['create']);
  if (usage !== undefined) return usage;
  try {
    process.stdout.write(await tokenCreate(argv.slice(1)));
    return 0;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat token create: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}

async function runAuth(argv: readonly string[]): Promise<number> {
  const usage = subcommandUsage('auth', argv, AUTH_USAGE, ['can-i']);
  if (usage !== undefined) return usage;
  try {
    const { stdout, stderr, allowed } = await authCanI(argv.slice(1));
    process.stderr.write(stderr);
    process.stdout.write(stdout);
    return allowed ? 0 : 1;
  } catch (e) {
    if (e instanceof FlagError || e instanceof CommandError) {
      process.stderr.write(`plat auth can-i: ${e.message}\n`);
      return e instanceof CommandError ? 3 : e.exitCode;
    }
    throw e;
  }
}

/** What --version and --version=raw print: the version.Info /version serves, as verflag prints it. */
function versionText(request: 'version' | 'raw'): string {
  const info = versionInfo(VERSION);
  return `${request === 'raw' ? rawVersionLine(info) : versionLine(info)}\n`;
}

/**
 * The role's command line parsed with the flags --help lists (no config file is read, as cobra
 * answers --help and --version before a component reads its files): what it asks to print, if
 * anything. A command line this cannot parse goes to boot, which reports the error, or parses it
 * with the flags of the config file's plugins too and answers there.
 */
function earlyRequest(profile: Profile, argv: readonly string[]): GlobalRequest | undefined {
  try {
    const flags = describe(profile);
    return globalRequest(flags, flags.parse(argv).positional, profile.argumentsCheck);
  } catch (e) {
    if (e instanceof FlagError) return undefined;
    throw e;
  }
}

function answer(request: GlobalRequest, profile: Profile): number {
  process.stdout.write(request === 'help' ? describe(profile).help(`plat ${profile.role} [flags]`, profile.description, undefined, helpSectionOrder(profile)) : versionText(request));
  return 0;
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
  if (role === 'bench') return runBench(rest);
  if (role === 'csr') return runCsr(rest);
  if (upcomingRoles[role]) { process.stderr.write(`plat ${role}: ${upcomingRoles[role]}\n`); return 2; }
  const profile = profiles[role];
  if (!profile) {
    process.stderr.write(`plat: unknown role "${role}"\n\n${USAGE}`);
    return 2;
  }
  const asked = earlyRequest(profile, rest);
  if (asked !== undefined) return answer(asked, profile);
  const logger = createLogger();
  // Signals are caught from the start: parts begin working during boot (the controllers start in
  // `ready`), and a SIGTERM then must stop them cleanly, not kill the process.
  let onStop: ((why: string, code: number) => void) | undefined;
  let early: { why: string; code: number } | undefined;
  const request = (why: string, code: number) => { if (onStop) onStop(why, code); else early ??= { why, code }; };
  // As upstream's SetupSignalHandler: the first signal stops cleanly, a second one exits 1 at once.
  let signals = 0;
  const onSignal = (name: string) => {
    if (++signals > 1) {
      process.stderr.write(`received ${name} again, exiting without waiting\n`);
      process.exit(1);
    }
    request(`received ${name}`, 0);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  let booted;
  try {
    booted = await boot({ profile, argv: rest, cwd: process.cwd(), logger, version: VERSION, ownsProcess: true, commands: Object.values(profiles),
      ...(process.env['PLAT_CONFIG'] ? { configFile: process.env['PLAT_CONFIG'] } : {}) });
  } catch (e) {
    if (e instanceof GlobalFlagRequest) return answer(e.request, profile);
    if (isStartupError(e)) {
      process.stderr.write(`plat ${role}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
  const { host } = booted;
  const summary = describeAllInOne(host);
  if (summary) process.stdout.write(summary);
  return new Promise<number>((resolve) => {
    // A daemon runs until it is told to stop, even when nothing of its own keeps the event loop
    // busy (a controller manager with no port and idle controllers).
    const keepAlive = setInterval(() => {}, 1 << 30);
    let stopping = false;
    onStop = (why: string, code: number) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${why}, shutting down`);
      const done = (c: number) => { clearInterval(keepAlive); resolve(c); };
      host.hooks.shutdown.promise().then(() => done(code), (e: unknown) => {
        logger.error('shutdown failed', { error: e instanceof Error ? e.message : String(e) });
        done(1);
      });
    };
    if (early) onStop(early.why, early.code);
    // A part that cannot go on (the controller manager lost its Lease) ends the process, as upstream.
    void exitRequested(host).then((r) => request(r.reason, r.code));
  });
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e: unknown) => {
  process.stderr.write(`plat: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
