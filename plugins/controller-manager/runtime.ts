// The controller manager's life once the process serves: run the controllers at once, or only
// while holding the Lease (--leader-elect). Losing the Lease ends `plat controller-manager` with
// exit code 1 ("leaderelection lost", as upstream) at once, without waiting for the controllers
// (upstream's OnStoppedLeading exits the process while they run). In `plat all` (`recampaign`)
// the process is the API server too: only the controllers stop, and once they all have returned
// the election campaigns again; a new term builds them afresh. Either way the leadership fence
// (the elector, which the controllers' clients and workers ask) has closed before they are told
// to stop. A stop gives the controllers --controller-shutdown-timeout to return, then gives up
// (the caller exits 1 then, as upstream's RunControllers failing).
import type { EventRecorder } from '../../core/client/events/event-broadcaster.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { LeaderElector } from '../../core/controller/leader-election.js';
import { requestExit } from '../../core/lifecycle.js';
import type { Logger } from '../../core/log.js';
import { leaderElectionMetrics } from '../../core/metrics/leader-election.js';
import type { HealthChecks } from '../../core/server/health.js';
import type { DeferredFence } from '../../core/client/write-fence.js';
import { formatDuration } from '../../core/flags/duration.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import type { LeaderElectionSettings } from './leader-election-settings.js';
import { ControllerInitError, RunningControllers, type RunControllersOptions } from './run-controllers.js';
import { ControllerContextError } from './wait-for-apiserver.js';

/** client-go's NewLeaderHealthzAdaptor(20s) in kube-controller-manager. */
export const LEADER_HEALTH_TOLERANCE_MS = 20_000;

export interface RuntimeOptions extends RunControllersOptions {
  /** Whoever runs the process (requestExit). */
  readonly host: object;
  readonly leaderElection: LeaderElectionSettings;
  /**
   * The Lease's own client (upstream's "leader-election" client), with a rate limiter of its own:
   * renewals must not queue behind the controllers' requests. Default `client`.
   */
  readonly leaderElectionClient?: RestClient;
  /** The controller manager's own recorder (the LeaderElection Events on its Lease). */
  readonly eventRecorder?: EventRecorder;
  readonly shutdownTimeoutMs: number;
  readonly health: HealthChecks;
  readonly logger: Logger;
  /** The fence the controllers' clients were made with: it follows the elector (left open without election). */
  readonly fence?: DeferredFence;
  /** `plat all`: a lost Lease stops the controllers only, and the election campaigns again. */
  readonly recampaign?: boolean;
}

export class ControllerManagerRuntime {
  readonly #stop = new AbortController();
  readonly #controllers = new RunningControllers();
  #done: Promise<void> | undefined;
  #elector: LeaderElector | undefined;
  /** Leadership was lost and the process exits without waiting for its controllers. */
  #exiting = false;
  constructor(private readonly o: RuntimeOptions) {}

  /** The election's identity (hostname_uuid), when electing. */
  get identity(): string | undefined { return this.#elector?.identity; }

  /** Starts in the background; never rejects. */
  start(): void {
    this.#done ??= this.#main().catch((e: unknown) => this.#fail(e));
  }

  #fail(e: unknown): void {
    // These two were logged where they happened, in upstream's words; the exit names them once more.
    const logged = e instanceof ControllerInitError || e instanceof ControllerContextError;
    const reason = logged ? e.message : `controller manager failed: ${e instanceof Error ? e.message : String(e)}`;
    if (!logged) this.o.logger.error(reason);
    requestExit(this.o.host, { code: 1, reason });
  }

  async #main(): Promise<void> {
    const { leaderElection: le, logger: log } = this.o;
    if (!le.leaderElect) {
      await this.#controllers.run(this.o, this.#stop.signal);
      return;
    }
    const elector = new LeaderElector({
      client: this.o.leaderElectionClient ?? this.o.client, namespace: le.resourceNamespace, name: le.resourceName,
      leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
      logger: log.child('leaderelection'),
      ...(this.o.eventRecorder ? { eventRecorder: this.o.eventRecorder } : {}),
      ...(this.o.metrics ? { metrics: leaderElectionMetrics(this.o.metrics) } : {}),
    });
    this.#elector = elector;
    this.o.fence?.follow(elector);
    this.o.health.add({ name: 'leaderElection', check: async () => elector.check(LEADER_HEALTH_TOLERANCE_MS) }, ['healthz', 'readyz']);
    for (;;) {
      const term = await this.#term(elector);
      if (term === 'failed' || this.#exiting) return;
      if (this.#stop.signal.aborted) {
        // Hand the Lease over at once when our controllers have all stopped; otherwise a standby must
        // wait out the lease duration, as after a crash. A term that ended by losing the Lease writes
        // it no more: it may be another's by now, and our own view is what failed.
        if (term === 'stopped') await elector.release();
        return;
      }
      // plat all: the controllers of the lost term have all returned (the elector waits for them).
      log.info('controllers stopped after losing the Lease; campaigning again', { lease: `${le.resourceNamespace}/${le.resourceName}` });
    }
  }

  /** One campaign and the term that follows it; how it ended. */
  async #term(elector: LeaderElector): Promise<'stopped' | 'lost' | 'failed' | 'not leading'> {
    const log = this.o.logger;
    let outcome: 'stopped' | 'lost' | 'failed' | 'not leading' = 'not leading';
    let cancelTimeout = (): void => {};
    await elector.run({
      onStartedLeading: async (leading) => {
        leading.addEventListener('abort', () => {
          if (this.#stop.signal.aborted) return;
          outcome = 'lost';
          log.error('leaderelection lost');
          if (!this.o.recampaign) {
            this.#exiting = true;
            requestExit(this.o.host, { code: 1, reason: 'leaderelection lost' });
            return;
          }
          log.info('stopping the controllers; the API server goes on serving', { timeout: formatDuration(this.o.shutdownTimeoutMs) });
          cancelTimeout = this.#timeoutWhileLost();
        }, { once: true });
        // The elector would only log a failure here and go on renewing a Lease nobody works under.
        try {
          await this.#controllers.run(this.o, leading);
          if (outcome === 'not leading') outcome = 'stopped';
        } catch (e) {
          outcome = 'failed';
          this.#fail(e);
        }
      },
    }, this.#stop.signal);
    cancelTimeout();
    return outcome;
  }

  /**
   * plat all after a lost Lease: past --controller-shutdown-timeout, names the controllers that
   * have not returned. The election waits for them still before it campaigns again (a new term
   * must not run beside the old one's leftovers); the fence keeps them from writing meanwhile.
   */
  #timeoutWhileLost(): () => void {
    const timeoutMs = this.o.shutdownTimeoutMs;
    if (timeoutMs <= 0) return () => {};
    return setLongTimeout(() => {
      const running = this.#controllers.running;
      if (running.length === 0) return;
      this.o.logger.info('Controller shutdown timeout reached', { timeout: formatDuration(timeoutMs), runningControllers: running });
    }, timeoutMs, { unref: true });
  }

  /**
   * Stops the controllers and waits --controller-shutdown-timeout (0: for ever) for them; rejects
   * naming the controllers still running when the time is up.
   */
  async stop(): Promise<void> {
    this.#stop.abort();
    if (!this.#done) return;
    // Upstream's OnStoppedLeading is klog.FlushAndExit(1): a controller that has not returned yet
    // (its stop was asked for when the Lease went) must not go on beside the new leader, for
    // --controller-shutdown-timeout or, with 0, for ever.
    if (this.#exiting) return;
    const timeoutMs = this.o.shutdownTimeoutMs;
    if (timeoutMs <= 0) return this.#done;
    let cancel = (): void => {};
    const timedOut = new Promise<true>((resolve) => { cancel = setLongTimeout(() => resolve(true), timeoutMs); });
    const outcome = await Promise.race([this.#done.then(() => false as const), timedOut]);
    cancel();
    if (!outcome) return;
    const running = this.#controllers.running;
    if (running.length === 0) {
      // The controllers did stop; what is left (informers winding down, handing the Lease over)
      // waits on an API server that does not answer. Not the controllers' failure: exit cleanly.
      this.o.logger.warn('controllers stopped; not waiting longer for the API server', { timeout: formatDuration(timeoutMs) });
      return;
    }
    this.#controllers.stopReporting();
    this.o.logger.info('Controller shutdown timeout reached', { timeout: formatDuration(timeoutMs), runningControllers: running });
    throw new Error(`controllers did not stop within --controller-shutdown-timeout=${formatDuration(timeoutMs)} (still running: ${running.join(', ')})`);
  }
}
