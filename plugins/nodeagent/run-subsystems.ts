// Building and running the node agent's subsystems (what plugins register through
// hooks.nodeAgent): each factory gets the shared context with a logger of its own; a factory that
// throws stops start-up (exit 1, naming it); all subsystems then run concurrently until the stop
// signal. A run() that returns early with a reason had nothing (more) to do (logged at V(2)); one
// that returns early without one is logged as unexpected. A run() that rejects while the agent
// runs is fatal: the failure is logged with the subsystem's name and reported to `onFailure` (the
// role ends the process with exit 1). A stop waits a bounded time for every run() to return and
// fails naming those that did not, or that rejected while stopping.
import type { MapRegistry, Subsystem } from '../../core/lifecycle.js';
import type { Logger } from '../../core/log.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import { formatDuration } from '../../core/flags/duration.js';

export type SubsystemFactory = (ctx: NodeAgentContext) => Subsystem;

export class SubsystemInitError extends Error {
  constructor(readonly subsystem: string, cause: unknown) {
    super(`error initializing subsystem ${JSON.stringify(subsystem)}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface SubsystemRunnerOptions {
  readonly registry: MapRegistry<SubsystemFactory>;
  readonly context: NodeAgentContext;
  readonly logger: Logger;
  /** A subsystem failed while the agent ran. */
  readonly onFailure: (subsystem: string, error: unknown) => void;
  /** How long stop() waits for the subsystems to return. */
  readonly stopTimeoutMs: number;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class SubsystemRunner {
  readonly #o: SubsystemRunnerOptions;
  readonly #stop = new AbortController();
  readonly #built: { name: string; runnable: Subsystem }[] = [];
  readonly #running = new Set<string>();
  readonly #stopFailures: string[] = [];
  #done: Promise<void> | undefined;

  constructor(o: SubsystemRunnerOptions) {
    this.#o = o;
  }

  /** Registered subsystems that are enabled (registration order). */
  get names(): string[] { return this.#built.map((b) => b.name); }
  /** Subsystems whose run() has not returned, sorted. */
  get running(): string[] { return [...this.#running].sort(); }

  /** Calls every enabled factory; throws SubsystemInitError for the first that throws. */
  build(): void {
    const { registry, context, logger } = this.#o;
    for (const name of registry.names()) {
      if (!registry.enabledByDefault(name)) {
        logger.info('Warning: subsystem is disabled', { subsystem: name });
        continue;
      }
      let runnable: Subsystem;
      try {
        runnable = registry.get(name)!({ ...context, logger: context.logger.child(name) });
      } catch (e) {
        logger.error('Error initializing a subsystem', { subsystem: name, error: message(e) });
        throw new SubsystemInitError(name, e);
      }
      this.#built.push({ name, runnable });
    }
  }

  /** Starts every built subsystem; never rejects. */
  start(): void {
    const { logger, onFailure } = this.#o;
    const signal = this.#stop.signal;
    this.#done = Promise.all(this.#built.map(async ({ name, runnable }) => {
      this.#running.add(name);
      logger.v(1).info('Subsystem starting', { subsystem: name });
      try {
        const done = await runnable.run(signal);
        if (!signal.aborted) {
          if (done) logger.v(2).info('Subsystem has nothing more to do', { subsystem: name, reason: done });
          else logger.info('Subsystem returned before the node agent stopped', { subsystem: name });
        }
      } catch (e) {
        if (signal.aborted) {
          logger.error('Subsystem failed while stopping', { subsystem: name, error: message(e) });
          this.#stopFailures.push(`${name}: ${message(e)}`);
        } else {
          logger.error('Subsystem failed', { subsystem: name, error: message(e) });
          onFailure(name, e);
        }
      } finally {
        this.#running.delete(name);
        logger.v(1).info('Subsystem terminated', { subsystem: name });
      }
    })).then(() => undefined);
  }

  /** Aborts the subsystems and waits for them; rejects naming those still running or failing. */
  async stop(): Promise<void> {
    this.#stop.abort();
    if (!this.#done) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<true>((resolve) => { timer = setTimeout(() => resolve(true), this.#o.stopTimeoutMs); });
    const outcome = await Promise.race([this.#done.then(() => false as const), timedOut]);
    clearTimeout(timer);
    if (outcome) {
      const still = this.running;
      throw new Error(`subsystems did not stop within ${formatDuration(this.#o.stopTimeoutMs)}: ${still.join(', ')}`);
    }
    if (this.#stopFailures.length) throw new Error(`subsystems failed while stopping: ${this.#stopFailures.join('; ')}`);
  }
}
