// A start tap that never settles held start-up without a word; when nothing else kept the event
// loop alive (a Promise nobody resolves: a plugin waiting on an event that never comes) the
// process even ended, exit 0, as if it had been told to stop. While the start taps run, the
// process is kept alive and the tap still running is named every interval, so a hung plugin is
// seen; a stop signal ends the wait. Start taps get that signal too (StartContext), so one that
// waits on something outside can stop with it; one that does not is left behind. The ready taps
// (run side by side) are watched the same way: one that never settles is named, and a stop signal
// ends start-up instead of waiting on it.
import type * as tapable from 'tapable';
import { whenAborted } from './abort-wait.js';
import type { StartContext } from './hooks.js';
import type { Logger } from './log.js';
import { ownerOf } from './tap-owners.js';
import { aroundTap } from './promise-taps.js';

export const START_WAIT_WARNING_MS = 10_000;

/** What runStartWatched says it waits on: `start`'s taps run one after another, `ready`'s side by side (trackPendingTaps). */
export type WatchedPhase = 'start' | 'ready';

/** Start-up was told to stop (SIGTERM, SIGINT) before its start (or ready) taps had all settled. */
export class StartAborted extends Error {
  constructor(readonly reason: string, readonly running: { plugin: string; tap?: string } | undefined, phase: WatchedPhase = 'start') {
    super(`start-up stopped: ${reason}${running === undefined ? ''
      : ` while the ${phase} tap ${running.tap === undefined ? '' : `${JSON.stringify(running.tap)} `}of plugin ${JSON.stringify(running.plugin)} had not settled`}`);
    this.name = 'StartAborted';
  }
}

const isTheAbort = (e: unknown, signal: AbortSignal): boolean =>
  e === signal.reason || (e instanceof Error && e.name === 'AbortError');

const reasonOf = (signal: AbortSignal): string => (typeof signal.reason === 'string' ? signal.reason : 'told to stop');

type Owner = { plugin: string; tap?: string };
interface Registering { intercept(interceptor: { register: (tap: AnyTap) => AnyTap }): void }
type AnyTap = tapable.AsyncParallelHook<[]>['taps'][number];
const pendingOf = new WeakMap<object, Set<Owner>>();

/**
 * Follows which taps of `hook` have been called and have not settled, for runStartWatched on a
 * hook whose taps run side by side. Install it before any tap registers, after the owners are
 * marked (core/tap-owners.ts).
 */
export function trackPendingTaps(hook: Registering): void {
  const pending = new Set<Owner>();
  pendingOf.set(hook, pending);
  hook.intercept({
    register: (tap) => {
      const owner = ownerOf(tap);
      const settled = (): void => { pending.delete(owner); };
      const fn = aroundTap(tap.type, tap.fn as (...args: unknown[]) => unknown, { settled, failed: (e) => { settled(); return e; } });
      return { ...tap, fn: (...args: unknown[]) => { pending.add(owner); return fn(...args); } };
    },
  });
}

/**
 * Runs the start or ready hook (`run` calls it), warning every `everyMs` with the name of the tap
 * it is waiting on. When `signal` aborts first, rejects with StartAborted at once, whether or not
 * the running tap ever settles.
 */
export async function runStartWatched(hook: tapable.AsyncSeriesHook<[StartContext]> | tapable.AsyncParallelHook<[]>, run: () => Promise<void>, logger: Logger,
  everyMs = START_WAIT_WARNING_MS, signal?: AbortSignal, phase: WatchedPhase = 'start'): Promise<void> {
  if (signal?.aborted) throw new StartAborted(reasonOf(signal), undefined, phase);
  let entered: Owner | undefined;
  const pending = pendingOf.get(hook);
  if (!pending) hook.intercept({ tap: (tap) => { entered = ownerOf(tap); } });
  // Side by side: the first one called that has not settled.
  const running = (): Owner | undefined => (pending ? pending.values().next().value : entered);
  let waited = 0;
  const timer = setInterval(() => {
    waited += everyMs;
    logger.warn(`start-up is waiting on a ${phase} tap that has not settled`, { ...running(), waited: `${waited / 1000}s` });
  }, everyMs);
  try {
    const started = run();
    if (!signal) return await started;
    const aborted = Symbol('aborted');
    const first = await Promise.race([started, whenAborted(signal).then(() => aborted)]);
    if (first === aborted) {
      // A tap that stops on the signal itself (the node agent's wait for its lock file) fails at
      // once, in its own words: that error is kept. One still running is left behind, and a late
      // rejection of it must not crash the stopping process.
      const failed = await Promise.race([started.then(() => undefined, (e: unknown) => ({ e })), new Promise<undefined>((r) => setImmediate(() => r(undefined)))]);
      // One that merely rethrows the abort (`events.once(x, 'y', { signal })`'s AbortError, or the
      // reason itself) has nothing of its own to say: start-up stopped, and which tap it was in.
      if (failed !== undefined && !isTheAbort(failed.e, signal)) throw failed.e;
      started.then(undefined, () => {});
      throw new StartAborted(reasonOf(signal), running(), phase);
    }
  } finally {
    clearInterval(timer);
  }
}
