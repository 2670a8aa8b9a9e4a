// NodeAgentPlugin: the `plat nodeagent` role. Declares every node-agent flag of spec 03 (the
// subsystems read the ones without a config field: --platconfig, --cert-dir, --node-ip, ...),
// builds the NodeAgentConfiguration (defaults, --config, --config-dir drop-ins, flags; validated,
// exit 1 with every problem), applies its logging settings, builds the NodeAgentContext, takes
// --lock-file, sets its process's OOM score and open-file limit (only as `plat nodeagent`), collects the subsystems other plugins register through hooks.nodeAgent, runs them
// all until the host shuts down, and ends the process with exit 1 when one fails.
// Taps flags, configure (stage 100: after plugins that register subsystems), start, ready, shutdown.
import { MASKED, maskUrlUserinfo } from '../../core/go-strip-password.js';
import type { FlagSet } from '../../core/flags/types.js';
import { SHUTDOWN_STAGE } from '../../core/hooks.js';
import type { Host } from '../../core/host.js';
import { MapRegistry, requestExit } from '../../core/lifecycle.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import { versionedConfiguration } from '../../core/nodeagent/configz.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { buildNodeAgentConfiguration, ConfigurationError, type BuiltConfiguration } from './build-config.js';
import { buildNodeAgentContext } from './context.js';
import { NODEAGENT_FLAGS } from './flag-specs.js';
import { LockFile } from './lock-file.js';
import { applyProcessSettings } from './process-settings.js';
import { SubsystemInitError, SubsystemRunner, type SubsystemFactory } from './run-subsystems.js';
import { printFlags } from '../../core/flags/print-flags.js';

export const PLUGIN_NAME = 'NodeAgentPlugin';

/** How long a stop waits for the subsystems before the process gives up on them (exit 1). */
export const SUBSYSTEM_STOP_TIMEOUT_MS = 30_000;

interface State { built?: BuiltConfiguration; context?: NodeAgentContext; runner?: SubsystemRunner; lock?: LockFile }
const states = new WeakMap<Host, State>();
const stateOf = (host: Host): State => {
  let s = states.get(host);
  if (!s) states.set(host, (s = {}));
  return s;
};

/** The running node agent's context (after configure), for tests and tools. */
export const getNodeAgentContext = (host: Host): NodeAgentContext | undefined => states.get(host)?.context;
/** The subsystem runner (after start). */
export const getSubsystemRunner = (host: Host): SubsystemRunner | undefined => states.get(host)?.runner;

/**
 * Builds and validates the configuration from the parsed flags (the role's prepare step calls it
 * so that a bad configuration stops start-up before any plugin is configured).
 */
export function prepareNodeAgentConfiguration(host: Host, flags: FlagSet, cwd = process.cwd()): BuiltConfiguration {
  const state = stateOf(host);
  if (state.built) return state.built;
  try {
    state.built = buildNodeAgentConfiguration({ flags, cwd, logger: host.logger });
  } catch (e) {
    if (e instanceof ConfigurationError) throw new StartupError(e.message, e.exitCode);
    throw e;
  }
  const { config } = state.built;
  host.logger.setVerbosity?.(config.logging.verbosity);
  host.logger.setFormat?.(config.logging.format === 'json' ? 'json' : 'text');
  host.logger.setVModule?.(config.logging.vmodule ?? []);
  // A verbosity from the file alone: the flags are printed now, as the kubelet prints them once the file's logging applies.
  printFlags(flags, host.logger);
  host.logger.child('nodeagent').info('Effective NodeAgentConfiguration', { config: JSON.stringify(forLog(config)) });
  return state.built;
}

/**
 * The configuration as /configz shows it, with the manifest URL's header values masked as upstream
 * logs it (they are often credentials), and, plat's addition, the URL's own user and password.
 */
function forLog(config: NodeAgentConfiguration) {
  const headers = config.staticPodURLHeader;
  const masked = headers ? Object.fromEntries(Object.keys(headers).map((k) => [k, [MASKED]])) : undefined;
  return versionedConfiguration({ ...config, staticPodURL: maskUrlUserinfo(config.staticPodURL), ...(masked ? { staticPodURLHeader: masked } : {}) });
}

export const NodeAgentPlugin: Plugin = {
  name: PLUGIN_NAME,
  calls: ['nodeAgent'],
  apply(host: Host): void {
    const log = host.logger.child('nodeagent');
    const state = stateOf(host);

    host.hooks.flags.tap(PLUGIN_NAME, (f) => {
      for (const nf of NODEAGENT_FLAGS) if (!nf.refuse) f.define({ ...nf.spec, owner: PLUGIN_NAME });
    });

    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: 100 }, (cfg) => {
      const { config, gates } = prepareNodeAgentConfiguration(host, cfg.flags);
      if (cfg.flags.get<boolean>('exit-on-lock-contention') && cfg.flags.get<string>('lock-file') === '') {
        throw new StartupError('cannot exit on lock file contention: no lock file specified', 1);
      }
      try {
        state.context = buildNodeAgentContext({ config, gates, flags: cfg.flags, logger: log, hooks: host.hooks });
      } catch (e) {
        throw new StartupError(e instanceof Error ? e.message : String(e), 1);
      }
      // Upstream's BuildAuth at start-up: without an API server nobody can review tokens or access.
      if (state.context.standalone && config.authentication.webhook.enabled) throw new StartupError('no client provided, cannot use webhook authentication', 1);
      if (state.context.standalone && config.authorization.mode === 'Webhook') throw new StartupError('no client provided, cannot use webhook authorization', 1);
    });

    host.hooks.start.tapPromise(PLUGIN_NAME, async ({ signal }) => {
      const ctx = state.context!;
      const lockPath = ctx.flags.get<string>('lock-file');
      if (lockPath) {
        log.info('Acquiring file lock', { path: lockPath });
        try {
          state.lock = await LockFile.acquire({ path: lockPath, logger: log, signal });
        } catch (e) {
          const why = signal.aborted ? 'interrupted' : e instanceof Error ? e.message : String(e);
          throw new StartupError(`unable to acquire file lock on "${lockPath}": ${why}`, 1);
        }
        if (ctx.flags.get<boolean>('exit-on-lock-contention')) {
          log.info('Watching for inotify events', { path: lockPath });
          state.lock.watchContention(log, () => requestExit(host, { code: 0, reason: 'file lock contention' }));
        }
      }
      const registry = new MapRegistry<SubsystemFactory>();
      host.hooks.nodeAgent.call(registry);
      const runner = new SubsystemRunner({
        registry, context: ctx, logger: log, stopTimeoutMs: SUBSYSTEM_STOP_TIMEOUT_MS,
        onFailure: (name, e) => requestExit(host, { code: 1, reason: `subsystem ${JSON.stringify(name)} failed: ${e instanceof Error ? e.message : String(e)}` }),
      });
      try {
        runner.build();
      } catch (e) {
        state.lock?.release();
        if (e instanceof SubsystemInitError) throw new StartupError(e.message, 1);
        throw e;
      }
      state.runner = runner;
      // Only a process of its own: a test runner or a bench booting agents keeps its own limits.
      if (host.ownsProcess) await applyProcessSettings({ oomScoreAdj: ctx.config.oomScoreAdj, maxOpenFiles: ctx.config.maxOpenFiles, logger: log });
    });

    host.hooks.ready.tapPromise(PLUGIN_NAME, async () => {
      const ctx = state.context!;
      const runner = state.runner!;
      if (ctx.standalone) log.info('Standalone mode, no API client');
      runner.start();
      log.info('Node agent running', { node: ctx.nodeName, subsystems: runner.names });
    });

    // A client of the API server: stops before a server in the same process drains.
    host.hooks.shutdown.tapPromise({ name: PLUGIN_NAME, stage: SHUTDOWN_STAGE.clients }, async () => {
      try {
        await state.runner?.stop();
      } finally {
        state.lock?.release();
      }
    });
  },
};

export { buildNodeAgentConfiguration, ConfigurationError, legacyDefaults } from './build-config.js';
export { CONFIG_FILE_DEPRECATION, NODEAGENT_FLAGS, NODEAGENT_FLAG_SECTIONS, type NodeAgentFlag } from './flag-specs.js';
export { nodeHostname } from './context.js';
export { SubsystemRunner } from './run-subsystems.js';
