// A start tap that never settles held start-up without a word; when nothing else kept the event
// loop alive (a Promise nobody resolves: a plugin waiting on an event that never comes) the
// process even ended, exit 0, as if it had been told to stop. While the start taps run, the
// process is kept alive and the tap still running is named every interval, so a hung plugin is
// seen (and a signal, or a second one, ends the wait).
import type tapable from 'tapable';
import type { Logger } from './log.js';

export const START_WAIT_WARNING_MS = 10_000;

/** Runs the start hook (`run` calls it), warning every `everyMs` with the name of the tap it is waiting on. */
export async function runStartWatched(hook: tapable.AsyncSeriesHook<[]>, run: () => Promise<void>, logger: Logger, everyMs = START_WAIT_WARNING_MS): Promise<void> {
  let running: string | undefined;
  hook.intercept({ tap: (tap) => { running = tap.name; } });
  let waited = 0;
  const timer = setInterval(() => {
    waited += everyMs;
    logger.warn('start-up is waiting on a start tap that has not settled', { plugin: running, waited: `${waited / 1000}s` });
  }, everyMs);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
}
