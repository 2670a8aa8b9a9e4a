// Building and running the enabled controllers while this process may (leader or no election), as
// kube-controller-manager's BuildControllers and RunControllers: each factory gets its own logger
// in the shared context; a factory that throws ends the process (upstream exits 1); each built
// controller gets a `/healthz/<name>` ping check; the controllers start one after another, each a
// jittered --controller-start-interval after the last, and the shared informers after them (each
// controller waits for the caches it needs). When `signal` aborts, the
// controllers are told to stop; `RunningControllers.running` says who has not returned yet.
import { setMaxListeners } from 'node:events';
import type { FlagSet } from '../../core/flags/types.js';
import type { Hooks } from '../../core/hooks.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { SharedInformers } from '../../core/controller/shared-informers.js';
import type { ControllerContext, MapRegistry, Runnable } from '../../core/lifecycle.js';
import type { Logger } from '../../core/log.js';
import { controllerManagerMetrics } from '../../core/metrics/controllers.js';
import type { MetricsRegistry } from '../../core/metrics/registry.js';
import { sleep } from '../../core/abort-wait.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import type { HealthChecks } from '../../core/server/health.js';
import type { WriteFence } from '../../core/client/write-fence.js';
import { waitForApiServer } from './wait-for-apiserver.js';

export type ControllerFactory = (ctx: ControllerContext) => Runnable | undefined;

export interface RunControllersOptions {
  readonly registry: MapRegistry<ControllerFactory>;
  /** Names to build, in registration order; the registry's others are disabled. */
  readonly enabled: readonly string[];
  readonly client: RestClient;
  /** --use-service-account-credentials: the client acting as a controller's service account. */
  readonly clientFor?: (serviceAccount: string) => Promise<RestClient>;
  /** The client of a controller registered with `rootClient`: the manager's own credentials, its agent. */
  readonly rootClientFor?: (name: string) => Promise<RestClient>;
  /** The CA bundle of the manager's own connection (ControllerContext.rootCA). */
  readonly rootCA?: Buffer;
  readonly flags: FlagSet;
  readonly hooks: Hooks;
  readonly logger: Logger;
  readonly health: HealthChecks;
  readonly minResyncMs: number;
  readonly startIntervalMs: number;
  /** How long to wait for the API server's /healthz before giving up (default WAIT_FOR_APISERVER_MS). */
  readonly waitForApiServerMs?: number;
  /** The component's metrics: the controllers' queues report there, and running_managed_controllers. */
  readonly metrics?: MetricsRegistry;
  /** --controller-shutdown-timeout (0: none): paces the lines naming the controllers a stop still waits for. */
  readonly shutdownTimeoutMs?: number;
  /** Under --leader-elect, the leadership fence each controller's context carries (its workers ask it). */
  readonly fence?: WriteFence;
}

/** RunControllers' period of "Still waiting ..." lines when there is no shutdown timeout. */
export const STILL_WAITING_PERIOD_MS = 5000;

/** The `manager` label of running_managed_controllers (upstream's "kube-controller-manager"). */
export const MANAGER_NAME = 'plat-controller-manager';

/** A factory failed: the process cannot do its job and exits, as upstream. */
export class ControllerInitError extends Error {
  override readonly name = 'ControllerInitError';
  constructor(readonly controller: string, cause: unknown) {
    super(`error initializing controller ${JSON.stringify(controller)}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export class RunningControllers {
  readonly #running = new Set<string>();
  /** The controllers given a health check so far: a later term (plat all leading again) adds none twice. */
  readonly #checked = new Set<string>();
  #stopReporting = (): void => {};
  /** Controllers whose run() has not returned yet, sorted. */
  get running(): string[] { return [...this.#running].sort(); }

  /** No more "Still waiting" lines: the stop gave up on the controllers (upstream's RunControllers returned). */
  stopReporting(): void { this.#stopReporting(); }

  /**
   * As RunControllers' logging goroutine: from the stop on, every third of the shutdown timeout (5s
   * without one), which controllers have not returned yet, so an operator waiting on a stop sees
   * what holds it up before the timeout names them.
   */
  #reportWhileStopping(log: Logger, signal: AbortSignal, shutdownTimeoutMs: number): () => void {
    const periodMs = shutdownTimeoutMs > 0 ? shutdownTimeoutMs / 3 : STILL_WAITING_PERIOD_MS;
    let cancel = (): void => {};
    let done = false;
    const tick = (): void => {
      cancel = setLongTimeout(() => {
        log.info('Still waiting for some controllers to terminate...', { runningControllers: this.running });
        tick();
      }, periodMs, { unref: true });
    };
    const start = (): void => { if (!done) tick(); };
    if (signal.aborted) start(); else signal.addEventListener('abort', start, { once: true });
    return () => { done = true; cancel(); signal.removeEventListener('abort', start); };
  }

  /** Builds, starts and runs the controllers; resolves once all of them returned after `signal` aborted. */
  async run(o: RunControllersOptions, signal: AbortSignal): Promise<void> {
    const log = o.logger;
    // Every request the controllers have in flight listens on it (node's http.request adds a
    // listener per request): a few dozen across their workers is the design, not a leak, and
    // Node's warning past ten would say leak.
    setMaxListeners(0, signal);
    try {
      await waitForApiServer(o.client, log, signal, o.waitForApiServerMs);
    } catch (e) {
      log.error('Error building controller context', { err: (e as Error).message });
      throw e;
    }
    if (signal.aborted) return;
    const informers = new SharedInformers(o.client, { minResyncMs: o.minResyncMs, logger: log.child('informers') });
    const built: { name: string; controller: Runnable }[] = [];
    // As BuildControllers: a disabled controller is told of here, once leading and the API
    // server answered, not at start-up (a standby that never leads never says it).
    for (const name of o.registry.names()) {
      if (!o.enabled.includes(name)) {
        log.info('Warning: controller is disabled', { controller: name });
        continue;
      }
      const factory = o.registry.get(name)!;
      let controller: Runnable | undefined;
      try {
        const clientFor = o.registry.usesRootClient(name) ? o.rootClientFor : o.clientFor;
        const client = clientFor ? await clientFor(o.registry.clientName(name)) : o.client;
        const ctx: ControllerContext = {
          client, informers, logger: log.child(name), flags: o.flags, hooks: o.hooks, ...(o.metrics ? { metrics: o.metrics } : {}), ...(o.fence ? { fence: o.fence } : {}),
          ...(o.rootCA ? { rootCA: o.rootCA } : {}),
        };
        controller = factory(ctx);
      } catch (e) {
        log.error('Error initializing a controller', { err: e instanceof Error ? e.message : String(e), controller: name });
        throw new ControllerInitError(name, e);
      }
      if (!controller) {
        log.info('Warning: skipping controller', { controller: name });
        continue;
      }
      built.push({ name, controller });
      if (!this.#checked.has(name)) o.health.add({ name, check: async () => {} }, ['healthz', 'readyz']);
      this.#checked.add(name);
    }

    const running = o.metrics ? controllerManagerMetrics(o.metrics, MANAGER_NAME) : undefined;
    const runOne = async ({ name, controller }: { name: string; controller: Runnable }) => {
      log.v(1).info('Starting controller', { controller: name });
      this.#running.add(name);
      running?.controllerStarted(name);
      try {
        const run = controller.run(signal);
        log.info('Started controller', { controller: name });
        await run;
      } catch (e) {
        log.error('Controller failed', { controller: name, error: e instanceof Error ? e.message : String(e) });
      } finally {
        running?.controllerStopped(name);
        this.#running.delete(name);
        log.v(1).info('Controller terminated', { controller: name });
      }
    };
    const runs: Promise<void>[] = [];
    const stopReporting = built.length ? this.#reportWhileStopping(log, signal, o.shutdownTimeoutMs ?? 0) : () => {};
    this.#stopReporting = stopReporting;
    for (const c of built) {
      // As StartControllers: one after another, each after wait.Jitter(interval, 1.0) (between one
      // and two intervals), so controller n starts after n intervals and they do not hit the API
      // server in lock-step.
      if (o.startIntervalMs > 0) await sleep(o.startIntervalMs * (1 + Math.random()), signal);
      if (signal.aborted) break;
      runs.push(runOne(c));
    }
    // As upstream's run: the shared informers start after StartControllers, so each controller
    // waits for the caches itself and logs it (WaitForNamedCacheSync's lines under its own name,
    // `unable to sync caches for <name>` when stopped before the first list).
    if (!signal.aborted) informers.start(signal);
    await Promise.all(runs);
    stopReporting();
    if (built.length) log.info('All controllers terminated');
    await informers.stopped();
  }
}
