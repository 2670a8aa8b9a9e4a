// A start tap that never settles held start-up without a word; when nothing else kept the event
// loop alive (a Promise nobody resolves: a plugin waiting on an event that never comes) the
// process even ended, exit 0, as if it had been told to stop. While the start taps run, the
// process is kept alive and the tap still running is named every interval, so a hung plugin is
// seen; a stop signal ends the wait. Start taps get that signal too (StartContext), so one that
// waits on something outside can stop with it; one that does not is left behind.
import type * as tapable from 'tapable';
import { whenAborted } from './abort-wait.js';
import type { StartContext } from './hooks.js';
import type { Logger } from './log.js';
import { ownerOf } from './tap-owners.js';

export const START_WAIT_WARNING_MS = 10_000;

/** Start-up was told to stop (SIGTERM, SIGINT) before its start taps had all settled. */
export class StartAborted extends Error {
  constructor(readonly reason: string, readonly running: { plugin: string; tap?: string } | undefined) {
    super(`start-up stopped: ${reason}${running === undefined ? ''
      : ` while the start tap ${running.tap === undefined ? '' : `${JSON.stringify(running.tap)} `}of plugin ${JSON.stringify(running.plugin)} had not settled`}`);
    this.name = 'StartAborted';
  }
}

const isTheAbort = (e: unknown, signal: AbortSignal): boolean =>
  e === signal.reason || (e instanceof Error && e.name === 'AbortError');

const reasonOf = (signal: AbortSignal): string => (typeof signal.reason === 'string' ? signal.reason : 'told to stop');

/**
 * Runs the start hook (`run` calls it), warning every `everyMs` with the name of the tap it is
 * waiting on. When `signal` aborts first, rejects with StartAborted at once, whether or not the
 * running tap ever settles.
 */
export async function runStartWatched(hook: tapable.AsyncSeriesHook<[StartContext]>, run: () => Promise<void>, logger: Logger, everyMs = START_WAIT_WARNING_MS, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new StartAborted(reasonOf(signal), undefined);
  let running: { plugin: string; tap?: string } | undefined;
  hook.intercept({ tap: (tap) => { running = ownerOf(tap); } });
  let waited = 0;
  const timer = setInterval(() => {
    waited += everyMs;
    logger.warn('start-up is waiting on a start tap that has not settled', { ...running, waited: `${waited / 1000}s` });
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
      throw new StartAborted(reasonOf(signal), running);
    }
  } finally {
    clearInterval(timer);
  }
}
