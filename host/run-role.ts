// A role of `plat` (apiserver, controller-manager, nodeagent, all): its profile's --help and
// --version, then boot, and the process kept until a signal or a part that cannot go on.
import { applyProfileDefaults, boot, declareFlags, helpSectionOrder, type Profile } from '../core/boot.js';
import { Flags, FlagError } from '../core/flags/flag-set.js';
import { GlobalFlagRequest, globalRequest, type GlobalRequest } from '../core/global-flags.js';
import { Host } from '../core/host.js';
import { exitRequested } from '../core/lifecycle.js';
import { createLogger } from '../core/log.js';
import { isStartupError } from '../core/plugin.js';
import { START_WAIT_WARNING_MS } from '../core/start-watch.js';
import { roleCalls, roles, upcomingRoles } from './role-registry.js';
import { describeAllInOne } from './roles/all-summary.js';

/** How long a signal during start-up waits for boot to stop before the process exits anyway. */
const ABANDON_START_MS = 10_000;

export interface RoleContext {
  readonly version: string;
  /** plat's usage, for an unknown role. */
  readonly usage: string;
  /** What --version and --version=raw print. */
  versionText(request: 'version' | 'raw'): string;
}

/** Flags of a profile without starting anything (for --help). */
function describe(profile: Profile, version: string): Flags {
  const host = new Host({ role: profile.role, version });
  for (const p of profile.plugins) p.apply(host, undefined);
  const flags = new Flags();
  declareFlags(host, profile, flags);
  applyProfileDefaults(profile, flags, { forHelp: true });
  return flags;
}

/**
 * The role's command line parsed with the flags --help lists (no config file is read, as cobra
 * answers --help and --version before a component reads its files): what it asks to print, if
 * anything. A command line this cannot parse goes to boot, which reports the error, or parses it
 * with the flags of the config file's plugins too and answers there.
 */
function earlyRequest(profile: Profile, argv: readonly string[], version: string): GlobalRequest | undefined {
  try {
    const flags = describe(profile, version);
    return globalRequest(flags, flags.parse(argv).positional, profile.argumentsCheck);
  } catch (e) {
    if (e instanceof FlagError) return undefined;
    throw e;
  }
}

function answer(request: GlobalRequest, profile: Profile, c: RoleContext): number {
  process.stdout.write(request === 'help' ? describe(profile, c.version).help(`plat ${profile.role} [flags]`, profile.description, undefined, helpSectionOrder(profile)) : c.versionText(request));
  return 0;
}

export async function runRole(role: string, rest: readonly string[], c: RoleContext): Promise<number> {
  // Own keys only: `plat constructor` is an unknown role, not Object.prototype's constructor.
  if (Object.hasOwn(upcomingRoles, role)) { process.stderr.write(`plat ${role}: ${upcomingRoles[role]}\n`); return 2; }
  const profile = Object.hasOwn(roles, role) ? await roles[role]!.load() : undefined;
  if (!profile) {
    process.stderr.write(`plat: unknown role "${role}"\n\n${c.usage}`);
    return 2;
  }
  const asked = earlyRequest(profile, rest, c.version);
  if (asked !== undefined) return answer(asked, profile, c);
  const logger = createLogger();
  // Signals are caught from the start: parts begin working during boot (the controllers start in
  // `ready`), and a SIGTERM then must stop them cleanly, not kill the process.
  let onStop: ((why: string, code: number) => void) | undefined;
  let early: { why: string; code: number } | undefined;
  const request = (why: string, code: number) => { if (onStop) onStop(why, code); else early ??= { why, code }; };
  // As upstream's SetupSignalContext: the first signal cancels (here: start-up too, which a start
  // tap that never settles would otherwise hold for good), a second one exits 1 at once.
  const startUp = new AbortController();
  let abandon: NodeJS.Timeout | undefined;
  let signals = 0;
  const onSignal = (name: string) => {
    if (++signals > 1) {
      process.stderr.write(`received ${name} again, exiting without waiting\n`);
      process.exit(1);
    }
    const why = `received ${name}`;
    if (!onStop) {
      startUp.abort(why);
      // Boot stops at once in its start taps; elsewhere (a plugin module or factory that never
      // settles, a shutdown tap that hangs) one signal must still end the process.
      abandon = setTimeout(() => {
        process.stderr.write(`plat ${role}: start-up did not stop within ${ABANDON_START_MS / 1000}s of the signal (${why}), exiting\n`);
        process.exit(1);
      }, ABANDON_START_MS);
    }
    request(why, 0);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // A plugin's factory (or module) awaiting a Promise that nothing settles leaves the event loop
  // empty before boot ends: Node would end the process, exit 0 and not a word, as a clean stop.
  // (A start tap is kept waiting and named instead, core/start-watch.ts.)
  let loading: string | undefined;
  let loadingWatch: NodeJS.Timeout | undefined;
  const stalled = () => {
    const what = loading ? `${loading}: its module or factory never resolves` : 'a plugin module, factory or tap that never resolves';
    process.stderr.write(`plat ${role}: start-up could not finish: it waits on a Promise that nothing is left to settle (${what})\n`);
    process.exit(1);
  };
  process.once('beforeExit', stalled);
  let booted;
  try {
    booted = await boot({ profile, argv: rest, cwd: process.cwd(), logger, version: c.version, ownsProcess: true, commands: roleCalls, signal: startUp.signal,
      loading: (label) => {
        loading = label;
        // One that never settles while something else keeps the loop alive (its own interval)
        // would hold start-up without a word: it is named every START_WAIT_WARNING_MS, as a start tap is.
        clearInterval(loadingWatch);
        if (!label) return;
        let waited = 0;
        loadingWatch = setInterval(() => {
          waited += START_WAIT_WARNING_MS;
          logger.warn('start-up is waiting on a plugin module or factory that has not settled', { entry: label, waited: `${waited / 1000}s` });
        }, START_WAIT_WARNING_MS);
        // Not what keeps the process up: the stall check above must still see an empty loop.
        loadingWatch.unref();
      },
      ...(process.env['PLAT_CONFIG'] ? { configFile: process.env['PLAT_CONFIG'] } : {}) });
  } catch (e) {
    if (e instanceof GlobalFlagRequest) return answer(e.request, profile, c);
    if (isStartupError(e)) {
      process.stderr.write(`plat ${role}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  } finally {
    process.off('beforeExit', stalled);
    clearTimeout(abandon);
    clearInterval(loadingWatch);
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
