// Time as the node subsystem sees it, injectable so tests drive registration backoff, status
// reports and lease renewals without waiting: `now` and an abortable `sleep` (resolves early, never
// rejects, when the signal aborts), plus wait.Jitter and wait.JitterUntil (sliding) on top.
import { sleep } from '../../core/abort-wait.js';

export interface Clock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep,
};

/** wait.Jitter: `ms` plus up to `factor` × `ms`. */
export const jittered = (ms: number, factor: number, random: () => number): number => ms + random() * factor * ms;

/** wait.JitterUntil with sliding = true: run, then wait a jittered period measured from the end of the run. */
export async function jitterUntil(run: () => Promise<void>, periodMs: number, factor: number, clock: Clock, random: () => number, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await run();
    if (signal.aborted) return;
    await clock.sleep(jittered(periodMs, factor, random), signal);
  }
}
