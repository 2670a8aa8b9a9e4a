// Boot, in one readable function: load the config file, apply plugins in order, declare and parse
// flags, refuse what cannot be honoured, configure, start. Every failure is a StartupError with a
// message a person can act on (exit 2 for command-line problems, 1 otherwise).
import { ConfigError, loadConfig, type LoadedConfig } from './config/load-config.js';
import { escapePointer } from './config/schema.js';
import path from 'node:path';
import { EntryTaps, externalTapError, loadExternalPlugins, namingFailures, type ExternalPlugin } from './external-plugins.js';
import { FlagError, Flags } from './flags/flag-set.js';
import { printFlags } from './flags/print-flags.js';
import type { FlagSpec } from './flags/types.js';
import type { Configuration } from './hooks.js';
import { Host } from './host.js';
import { asPlugin } from './tap-owners.js';
import { runStartWatched, START_WAIT_WARNING_MS, StartAborted } from './start-watch.js';
import { declareFeatureGatesFlag, evaluateFeatureGatesFlag } from './feature-gates/flag.js';
import { declareGlobalFlags, dynamicGitVersion, GlobalFlagRequest, globalRequest } from './global-flags.js';
import { applyLoggingFlags, declareLoggingFlags } from './log-flags.js';
import type { Logger } from './log.js';
import { isStartupError, StartupError, type Plugin } from './plugin.js';
import { warnUncalledTaps, type CommandCalls } from './uncalled-taps.js';
import { gatherOptionsErrors } from './options-validation.js';
import { argumentsError, type ArgumentsCheck } from './positional-arguments.js';
import { isThenable } from './promise-taps.js';

export interface Profile {
  readonly role: string;
  /** One-line description printed by --help. */
  readonly description: string;
  /** Plugins applied before those of the config file, in order. */
  readonly plugins: readonly Plugin[];
  /** Every flag of the role as the spec lists it; those no plugin declares are refused if given. */
  readonly catalogue?: readonly FlagSpec[];
  /** Flag values that differ from the spec's defaults for this role (config file and command line win). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** What --help shows as the default of flags that `prepare` points at what it makes, e.g. `<data-dir>/pki/ca.crt`. */
  readonly helpDefaults?: Readonly<Record<string, unknown>>;
  /**
   * Roles whose work this command does too (`plat all`: apiserver, controller-manager): it does not
   * read their sections of the config file, and says so at start-up when the file has them.
   */
  readonly covers?: readonly string[];
  /** --help's section order when it is not the catalogue's (`plat all`: two components' sections). */
  readonly helpSections?: readonly string[];
  /** How positional arguments are refused, as the upstream component refuses them (default cobra's). */
  readonly argumentsCheck?: ArgumentsCheck;
  /** Work between parsing and configure, e.g. creating the all-in-one PKI and pointing flags at it. */
  readonly prepare?: (host: Host, flags: Flags) => Promise<void>;
  /**
   * Defaults that follow from other flags' values (`plat all`'s paths under --data-dir), set once
   * the command line is read and before the flags are logged, so that their lines show them.
   */
  readonly settle?: (flags: Flags) => void;
}

/** The profile's own defaults, below the config file and the command line. */
export function applyProfileDefaults(profile: Profile, flags: Flags, o: { forHelp?: boolean } = {}): void {
  const values = { ...profile.defaults, ...(o.forHelp ? profile.helpDefaults : {}) };
  if (Object.keys(values).length > 0) flags.setFromConfig(values, `the ${profile.role} profile`, 'profile');
}

/** The order of --help's sections: the catalogue's, which is the spec's, unless the profile names one. */
export function helpSectionOrder(profile: Profile): readonly string[] {
  return profile.helpSections ?? [...new Set((profile.catalogue ?? []).map((s) => s.section))];
}

export interface BootOptions {
  readonly profile: Profile;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** An explicit config file (PLAT_CONFIG); otherwise cosmiconfig searches from cwd. */
  readonly configFile?: string;
  readonly logger: Logger;
  readonly version: string;
  /** Every command, to name those that call a hook this one taps but never calls (core/uncalled-taps.ts). */
  readonly commands?: readonly CommandCalls[];
  /** The role is the whole process (Host.ownsProcess). */
  readonly ownsProcess?: boolean;
  /**
   * Aborts start-up (the process got SIGTERM or SIGINT): the start taps are no longer waited on,
   * what has started is shut down, and boot fails with exit 1. Its reason (a string) is said. The
   * start taps are handed it (StartContext), to stop what they wait on.
   */
  readonly signal?: AbortSignal;
  /** Told which config-file entry's module and factory are being awaited (undefined: none now). */
  readonly loading?: (label: string | undefined) => void;
}

export interface Booted { host: Host; flags: Flags; configFile?: string }

const NOT_YET = 'not implemented by plat yet';
const LOGGING = 'Versions, features, metrics and logging';

/**
 * Every flag of a role: those the plugins declare, the host's own (-v and the logging flags no
 * plugin declares, core/log-flags.ts), then the rest of the
 * spec's catalogue marked unsupported so --help matches the spec and using one is refused, and
 * last the global --help and --version (core/global-flags.ts), as upstream's last section.
 */
export function declareFlags(host: Host, profile: Profile, flags: Flags): void {
  host.hooks.flags.call(flags);
  if (!flags.has('v')) {
    // Listed where the role's catalogue lists it (each spec has its own section for logging).
    const listed = profile.catalogue?.find((s) => s.name === 'v');
    flags.define({ name: 'v', shorthand: 'v', type: 'level', default: 0, help: 'Log verbosity.', section: listed?.section ?? LOGGING, owner: 'host' });
  }
  declareLoggingFlags(flags, profile.catalogue ?? []);
  declareFeatureGatesFlag(flags, profile.catalogue ?? []);
  for (const spec of profile.catalogue ?? []) {
    if (!flags.has(spec.name)) flags.define({ ...spec, unsupported: spec.unsupported ?? NOT_YET, owner: 'catalogue' });
  }
  declareGlobalFlags(flags, profile.role, host.version);
}

/**
 * A section of a role this command covers (`roles.apiserver` under `plat all`) looks as if it
 * applied here but does not: named, key by key, so that nothing in the file is ignored silently.
 * A warning, not a refusal: one file may serve several commands.
 */
function warnUnreadSections(profile: Profile, config: LoadedConfig, logger: Logger): void {
  const unread = (profile.covers ?? []).filter((role) => config.roles[role] !== undefined);
  if (unread.length === 0) return;
  // Fields as JSON pointers, as every other problem of the file names its field.
  const section = (role: string) => `/roles/${escapePointer(role)}`;
  const ignored = unread.flatMap((role) => {
    const { plugins, flags } = config.roles[role]!;
    const keys = [
      ...plugins.map((p) => `${p.pointer}${typeof p.spec === 'string' ? ` (${p.spec})` : ''}`),
      ...Object.keys(flags).map((f) => `${section(role)}/flags/${escapePointer(f)}`),
    ];
    return keys.length > 0 ? keys : [section(role)];
  });
  logger.warn(`${config.filepath}: plat ${profile.role} reads ${section(profile.role)}, not ${unread.map(section).join(' or ')}: their plugins are not loaded and their flags not set here (move them to ${section(profile.role)}, or to the top level, to use them)`, { ignored });
}

/**
 * The configuration a config-file entry's configure tap sees: `pluginOptions` by name holds the
 * last entry's options of a name, and a module listed twice must see its own entry's.
 */
function ownConfiguration(c: Configuration, entry: ExternalPlugin): Configuration {
  const pluginOptions = new Map(c.pluginOptions);
  if (entry.options === undefined) pluginOptions.delete(entry.plugin.name);
  else pluginOptions.set(entry.plugin.name, entry.options);
  return { ...c, pluginOptions };
}

export async function boot(o: BootOptions): Promise<Booted> {
  const { profile } = o;
  const host = new Host({ role: profile.role, logger: o.logger, version: o.version, ownsProcess: o.ownsProcess ?? false });

  let config;
  try {
    config = await loadConfig({ cwd: o.cwd, ...(o.configFile ? { file: o.configFile } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) throw new StartupError(e.message, 1);
    throw e;
  }
  if (config) warnUnreadSections(profile, config, o.logger);
  const roleSection = config?.roles[profile.role];
  const refs = [...(config?.plugins ?? []), ...(roleSection?.plugins ?? [])];
  const external = config ? await loadExternalPlugins(refs, config.filepath, profile.plugins, o.loading) : [];
  // Which file was found (or not) is the first thing a plugin author needs to see.
  if (config) o.logger.info('using the config file', { file: config.filepath, plugins: external.map((x) => x.plugin.name) });

  // Taps are followed by entry before any plugin applies: a failing configure or start tap is
  // named with its entry, and each entry's configure tap is handed its own options.
  const entryTaps = new EntryTaps();
  const configuring = entryTaps.follow(host.hooks.configure, (fn, entry) => (c: Configuration) => fn(ownConfiguration(c, entry)));
  const starting = entryTaps.follow(host.hooks.start);
  // The ready taps run side by side: each one's failure is named with its entry as it fails.
  entryTaps.follow(host.hooks.ready, (fn, entry, type) => namingFailures(fn, entry, 'become ready', type));
  const pluginOptions = new Map<string, unknown>();
  const entries: ExternalPlugin[] = [...profile.plugins.map((plugin) => ({ plugin, options: undefined as unknown, label: '' })), ...external];
  for (const entry of entries) {
    const { plugin, options, label } = entry;
    try {
      const returned: unknown = entryTaps.applying(label ? entry : undefined, () => asPlugin(plugin.name, () => plugin.apply(host, options)));
      if (isThenable(returned)) {
        returned.then(undefined, () => {}); // refused below; its rejection must not crash the process unnamed
        throw new Error('apply returned a Promise: apply must tap its hooks before it returns (an async apply\'s taps come too late, its errors unnamed); do asynchronous set-up in an async factory or in a start tap');
      }
      if (options !== undefined) pluginOptions.set(plugin.name, options);
    } catch (e) {
      // As a configure or start tap's failure is named (`<entry>: X failed to configure`).
      throw new StartupError(`${label ? `${label}: ` : 'plugin '}${plugin.name} failed to apply: ${e instanceof Error ? e.message : String(e)}`, 1);
    }
  }

  const flags = new Flags();
  try {
    declareFlags(host, profile, flags);
    applyProfileDefaults(profile, flags);
    if (config) {
      try {
        // Each value is named by its field, as the file's other errors are (`<file>: <JSON pointer>: ...`).
        const fromRole = roleSection?.flags ?? {};
        const field = (key: string) => `${Object.hasOwn(fromRole, key) ? `/roles/${escapePointer(profile.role)}` : ''}/flags/${escapePointer(key)}`;
        flags.setFromConfig({ ...config.flags, ...fromRole }, (key) => `${config.filepath}: ${field(key)}`);
      } catch (e) {
        // A flag the file names or sets wrongly is a config-file problem (exit 1), not a command-line one.
        if (e instanceof FlagError) throw new ConfigError(e.message);
        throw e;
      }
    }
    const { positional } = flags.parse([...o.argv]);
    // Help comes before cobra's Args check (not the kubelet's), the version after it (globalRequest
    // asks for no version when there is an argument), and cobra's check refuses only non-empty
    // arguments (a blank from a script's unset variable passes).
    const check = profile.argumentsCheck ?? 'cobra';
    const request = globalRequest(flags, positional, check);
    if (request === 'help') throw new GlobalFlagRequest(request);
    const refused = argumentsError(check, `plat ${profile.role}`, positional);
    if (refused !== undefined) throw new FlagError(refused);
    if (request !== undefined) throw new GlobalFlagRequest(request);
    host.gitVersion = dynamicGitVersion(flags);
  } catch (e) {
    if (e instanceof FlagError || e instanceof ConfigError) throw new StartupError(e.message, e instanceof FlagError ? 2 : 1);
    throw e;
  }
  const unsupported = flags.usedUnsupported();
  if (unsupported.length) {
    throw new StartupError(unsupported.map((u) => `--${u.name} is not supported: ${u.reason}`).join('\n'), 2);
  }
  o.logger.setVerbosity?.(flags.get<number>('v'));
  applyLoggingFlags(flags, o.logger);
  for (const d of flags.usedDeprecated()) o.logger.warn(`Flag --${d.name} has been deprecated, ${d.message}`);
  profile.settle?.(flags);
  // Upstream's components log their flags once logging is set up, before building their config.
  printFlags(flags, o.logger);
  // As upstream's PersistentPreRunE sets the gates: before anything reads them.
  const gates = evaluateFeatureGatesFlag(flags, o.logger);
  if (gates) host.featureGates = gates;

  await profile.prepare?.(host, flags);
  const configFile = config ? { configFile: config.filepath, configDir: path.dirname(config.filepath) } : {};
  // Every plugin's options problems at once, as upstream's Validate: nothing past it runs then.
  const validation = gatherOptionsErrors(host.hooks.configure);
  try {
    host.hooks.configure.call({ role: profile.role, flags, pluginOptions, ...configFile });
    const invalid = validation.error();
    if (invalid) throw invalid;
  } catch (e) {
    if (isStartupError(e)) throw e;
    throw externalTapError(configuring(), 'configure', e) ?? new StartupError(e instanceof Error ? e.message : String(e), 1);
  }
  warnUncalledTaps(host, { role: profile.role, plugins: [...profile.plugins, ...external.map((x) => x.plugin)] }, o.commands ?? [], o.logger);
  // Without a signal of boot's (a test's or a bench's boot) the taps get one that never aborts.
  const context = Object.freeze({ signal: o.signal ?? new AbortController().signal });
  // The taps that settled may have started parts (a listener, storage): whatever ended start-up,
  // they are stopped as a stop after start-up would, before saying why (a process exits anyway;
  // one that boots in process, a test's or a bench's, would keep them open).
  const stopStarted = () => host.hooks.shutdown.promise().catch((err: unknown) => o.logger.error('shutdown failed', { error: err instanceof Error ? err.message : String(err) }));
  try {
    await runStartWatched(host.hooks.start, () => host.hooks.start.promise(context), o.logger, START_WAIT_WARNING_MS, o.signal);
  } catch (e) {
    await stopStarted();
    if (e instanceof StartAborted) throw new StartupError(e.message, 1);
    throw externalTapError(starting(), 'start', e) ?? e;
  }
  try {
    await runStartWatched(host.hooks.ready, () => host.hooks.ready.promise(), o.logger, START_WAIT_WARNING_MS, o.signal, 'ready');
  } catch (e) {
    await stopStarted();
    if (e instanceof StartAborted) throw new StartupError(e.message, 1);
    throw e;
  }
  return { host, flags, ...(config ? { configFile: config.filepath } : {}) };
}
