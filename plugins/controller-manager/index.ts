// ControllerManagerPlugin: runs the controllers other plugins register through hooks.controllers,
// as kube-controller-manager does: an API client (--platconfig / --master, --plat-api-qps/-burst),
// shared informers (--min-resync-period), the controllers --controllers selects, leader election
// on a Lease (--leader-elect*), and a bounded stop (--controller-shutdown-timeout). The embedded
// variant runs inside `plat all` with the process's own API server and admin credentials.
// Taps flags, configure (stage 100: after the controller plugins' own configure), ready and
// shutdown; intercepts hooks.controllers to learn which plugin registers each controller (one
// whose controllers are all off calls none of its hooks, core/uncalled-taps.ts); adds the
// `leaderElection` and per-controller checks to the component's health checks and its
// configuration to the component's /configz (both served by the controller manager's endpoint
// plugin, when there is one).
import { EventBroadcaster } from '../../core/client/events/event-broadcaster.js';
import { restEventSink } from '../../core/client/events/event-sink.js';
import { hasInProcessConnection, inProcessConnection } from '../../core/client/in-process.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { RestClient } from '../../core/client/rest-client.js';
import { DeferredFence } from '../../core/client/write-fence.js';
import { addUserAgent, defaultUserAgent } from '../../core/client/user-agent.js';
import type { FlagSet } from '../../core/flags/types.js';
import { SHUTDOWN_STAGE } from '../../core/hooks.js';
import type { Host } from '../../core/host.js';
import { MapRegistry } from '../../core/lifecycle.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { located, locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import { componentHealthChecks } from '../../core/server/health.js';
import { componentConfigz } from '../../core/server/configz.js';
import { defaultGitVersion } from '../../core/version.js';
import { componentMetrics } from '../../core/metrics/component.js';
import { restClientMetrics } from '../../core/metrics/rest-client.js';
import { callsNothing } from '../../core/uncalled-taps.js';
import { standaloneConnection } from './connection.js';
import { ServiceAccountClients } from './service-account-clients.js';
import { ControllerClients } from './controller-clients.js';
import { controllersHelp, isControllerEnabled, unknownControllerErrors } from '../../core/controller/selection.js';
import { connectionFlags, FLAGS, runnerFlags } from './flags.js';
import { CONFIGZ_NAME, controllerManagerConfigz } from './configz.js';
import { LEADER_ELECT, leaderElectionProblems, leaderElectionSettings, type LeaderElectionProblem } from './leader-election-settings.js';
import { MANAGER_NAME, type ControllerFactory } from './run-controllers.js';
import { ControllerManagerRuntime } from './runtime.js';

const PLUGIN_NAME = 'ControllerManagerPlugin';

export interface ControllerManagerPluginOptions {
  /** Inside `plat all`: no connection flags; the API server of the process is used. */
  readonly embedded?: boolean;
}

const runtimes = new WeakMap<Host, ControllerManagerRuntime>();
/** The running controller manager of a host (after `ready`), for tests. */
export const getControllerManager = (host: Host): ControllerManagerRuntime | undefined => runtimes.get(host);

function collectControllers(host: Host, registrant?: () => string | undefined): MapRegistry<ControllerFactory> {
  const registry = new MapRegistry<ControllerFactory>(registrant);
  host.hooks.controllers.call(registry);
  return registry;
}

/**
 * A plugin whose controllers are all off calls none of its hooks in this run (its signer taps do
 * nothing, say): told to core/uncalled-taps.ts, which names such taps with the reason.
 */
function reportIdlePlugins(host: Host, registry: MapRegistry<ControllerFactory>, enabled: readonly string[], selection: readonly string[]): void {
  const byPlugin = new Map<string, string[]>();
  for (const name of registry.names()) {
    const plugin = registry.registeredBy(name);
    if (plugin !== undefined) byPlugin.set(plugin, [...(byPlugin.get(plugin) ?? []), name]);
  }
  for (const [plugin, names] of byPlugin) {
    if (names.some((n) => enabled.includes(n))) continue;
    callsNothing(host, plugin, `${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} disabled by --controllers=${selection.join(',')}`);
  }
}

/** client-go's rest.Config defaults: qps 0 is 5 and burst 0 is 10; a negative qps means no limit. */
function clientLimits(flags: FlagSet): { qps: number; burst: number } {
  const qps = flags.get<number>(FLAGS.qps);
  const burst = flags.get<number>(FLAGS.burst);
  return { qps: qps === 0 ? 5 : qps < 0 ? -1 : qps, burst: burst === 0 ? 10 : burst };
}

export function createControllerManagerPlugin(options: ControllerManagerPluginOptions = {}): Plugin {
  const embedded = options.embedded === true;
  return {
    name: PLUGIN_NAME,
    calls: ['controllers'],
    apply(host: Host): void {
      const log = host.logger.child('controller-manager');
      let flags: FlagSet | undefined;
      let registry: MapRegistry<ControllerFactory> | undefined;
      let enabled: string[] = [];
      let connection: ClientConnection | undefined;

      // Which plugin registers each controller: the tap being called.
      let registering: string | undefined;
      host.hooks.controllers.intercept({ name: PLUGIN_NAME, tap: (tap) => { registering = tap.name; } });

      host.hooks.flags.tap(PLUGIN_NAME, (f) => {
        const known = collectControllers(host);
        const off = known.names().filter((n) => !known.enabledByDefault(n));
        for (const spec of [...(embedded ? [] : connectionFlags), ...runnerFlags(controllersHelp(known.names(), off))]) {
          f.define({ ...spec, owner: PLUGIN_NAME });
        }
      });

      // GenericControllerManagerConfigurationOptions.Validate, first of upstream's options checks:
      // its problems join the other plugins' (core/options-validation.ts).
      host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.generic }, ({ flags: f }) => {
        const known = collectControllers(host);
        const unknown = unknownControllerErrors(f.get<string[]>(FLAGS.controllers), [...known.names(), ...known.aliases()]);
        const election = leaderElectionProblems(leaderElectionSettings(f));
        // In the order upstream finds them: GenericControllerManagerConfigurationOptions.Validate
        // checks the lock before the controllers; client-go's elector checks the rest later.
        const isLock = (p: LeaderElectionProblem) => p.flags.length === 1 && p.flags[0] === LEADER_ELECT.resourceLock;
        const problem = locatedError([
          ...election.filter(isLock).map((p) => located(f, [p.message], p.flags)),
          located(f, unknown, [FLAGS.controllers]),
          ...election.filter((p) => !isLock(p)).map((p) => located(f, [p.message], p.flags)),
        ]);
        if (problem) throw problem;
      });

      host.hooks.configure.tap({ name: PLUGIN_NAME, stage: 100 }, (cfg) => {
        flags = cfg.flags;
        registry = collectControllers(host, () => registering);
        const selection = flags.get<string[]>(FLAGS.controllers);
        if (embedded) {
          if (!hasInProcessConnection(host)) throw new StartupError(`${PLUGIN_NAME}: the embedded controller manager needs the API server of its process`);
        } else {
          connection = standaloneConnection(flags);
        }
        for (const name of registry.names()) {
          if (isControllerEnabled(name, !registry.enabledByDefault(name), selection, registry.aliasesOf(name))) enabled.push(name);
        }
        reportIdlePlugins(host, registry, enabled, selection);
        // Upstream sets it once in Run, from the finished configuration; `plat all` has no /configz.
        if (!embedded) {
          // Run's first line, once the configuration is complete (upstream: after Config read the
          // kubeconfig, before the endpoint serves), "to help debugging".
          log.info('Starting', { version: host.gitVersion ?? defaultGitVersion(host.version) });
          const known = registry;
          const canonical = (item: string) => known.names().find((n) => known.aliasesOf(n).includes(item)) ?? item;
          componentConfigz(host).set(CONFIGZ_NAME, controllerManagerConfigz(flags, canonical));
        }
      });

      host.hooks.ready.tapPromise(PLUGIN_NAME, async () => {
        const conn = connection ?? inProcessConnection(host);
        if (!conn) throw new StartupError(`${PLUGIN_NAME}: the API server of this process does not serve`);
        const f = flags!;
        // plat all serves no /metrics: its controllers record nothing.
        const metrics = embedded ? undefined : componentMetrics(host);
        const leaderElection = leaderElectionSettings(f);
        // Under --leader-elect every write of the controllers (their clients', the informers' and the
        // service-account set-up's) passes the leadership fence; the Lease's own client does not.
        const fence = leaderElection.leaderElect ? new DeferredFence() : undefined;
        const clientOptions = { ...clientLimits(f), logger: log, ...(metrics ? { metrics: restClientMetrics(metrics) } : {}), ...(fence ? { fence } : {}) };
        // Upstream's agents, each client its own: the informers' and the wait for /healthz
        // ("shared-informers"), the Lease's ("leader-election"), each controller's (its client
        // name, or its service account's username), and the controller manager's own, which
        // creates the service accounts and requests their tokens ("kube-controller-manager").
        const agent = defaultUserAgent(MANAGER_NAME, host.version, host.gitVersion);
        const client = new RestClient(conn, { ...clientOptions, userAgent: addUserAgent(agent, 'shared-informers') });
        // As kube-controller-manager's: the Lease's renewals never wait for the controllers' requests,
        // and each gives up at half the renew deadline (resourcelock.NewFromKubeconfig), so that one
        // hung request leaves time for another try instead of costing the lease.
        const { fence: _unfenced, ...leaseClientOptions } = clientOptions;
        const leaderElectionClient = leaderElection.leaderElect
          ? new RestClient(conn, {
            ...leaseClientOptions, userAgent: addUserAgent(agent, 'leader-election'),
            timeoutMs: Math.max(1000, leaderElection.renewDeadlineMs / 2),
          })
          : undefined;
        const root = !embedded && f.get<boolean>(FLAGS.useServiceAccountCredentials)
          ? new RestClient(conn, { ...clientOptions, userAgent: addUserAgent(agent, MANAGER_NAME) })
          : undefined;
        // createRecorder's: the manager's own Events (its Lease's LeaderElection ones), written by
        // its own client and logged at V(0) as `Event occurred`, as StartStructuredLogging(0). They
        // are about the election itself, so not fenced: `stopped leading` goes out after the Lease has.
        const eventClient = leaderElectionClient ? new RestClient(conn, { ...leaseClientOptions, userAgent: addUserAgent(agent, MANAGER_NAME) }) : undefined;
        const events = eventClient ? new EventBroadcaster({ logger: log }) : undefined;
        if (events && eventClient) {
          events.startStructuredLogging(0, log.child('leaderelection'));
          events.startRecordingToSink(restEventSink(eventClient));
        }
        const controllerClients = root
          ? new ServiceAccountClients({ root, rootConnection: conn, clientOptions, defaultAgent: agent, logger: log })
          : new ControllerClients(conn, clientOptions, agent);
        // A controller registered with rootClient (the tokens controller) keeps these credentials.
        const rootClients = root ? new ControllerClients(conn, clientOptions, agent) : controllerClients;
        const runtime = new ControllerManagerRuntime({
          host, registry: registry!, enabled, client, flags: f, hooks: host.hooks, logger: log,
          clientFor: async (name: string) => controllerClients.clientFor(name),
          rootClientFor: async (name: string) => rootClients.clientFor(name),
          ...(conn.ca !== undefined && conn.ca.length > 0 ? { rootCA: Buffer.from(conn.ca) } : {}),
          health: componentHealthChecks(host),
          minResyncMs: f.get<number>(FLAGS.minResyncPeriod),
          startIntervalMs: f.get<number>(FLAGS.startInterval),
          shutdownTimeoutMs: f.get<number>(FLAGS.shutdownTimeout),
          leaderElection, recampaign: embedded,
          ...(fence ? { fence } : {}),
          ...(leaderElectionClient ? { leaderElectionClient } : {}),
          ...(events ? { eventRecorder: events.newRecorder({ component: MANAGER_NAME }) } : {}),
          ...(metrics ? { metrics } : {}),
        });
        runtimes.set(host, runtime);
        log.info('starting the controller manager', { server: conn.server.origin, controllers: enabled, leaderElect: f.get<boolean>('leader-elect') });
        runtime.start();
        // In `plat all`, before the API server drains: the controllers' last writes land.
        host.hooks.shutdown.tapPromise({ name: PLUGIN_NAME, stage: SHUTDOWN_STAGE.clients }, async () => {
          try {
            await runtime.stop();
          } finally {
            events?.shutdown();
            eventClient?.close();
            controllerClients.close();
            if (rootClients !== controllerClients) rootClients.close();
            root?.close();
            client.close();
            leaderElectionClient?.close();
          }
        });
      });
    },
  };
}

export const ControllerManagerPlugin: Plugin = createControllerManagerPlugin();
/** For `plat all`: the same controllers, through the process's own API server. */
export const EmbeddedControllerManagerPlugin: Plugin = createControllerManagerPlugin({ embedded: true });

export { applyControllerManagerConfig, CONFIG_FIELDS } from './config-file.js';
export { CONFIG_API_VERSION, CONFIG_KIND } from './config-schema.js';
