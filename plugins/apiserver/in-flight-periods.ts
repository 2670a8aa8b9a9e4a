// The periods of a host's max-in-flight watermarks (core/server/max-in-flight.ts): a second each,
// as upstream's maintenance, unless a test plugin, applied before start, ends them itself.
import type { Host } from '../../core/host.js';
import { WATERMARK_PERIOD_MS } from '../../core/server/max-in-flight.js';

/** Calls `endPeriod` at each period's end until `stop` aborts. */
export type PeriodSchedule = (endPeriod: () => void, stop: AbortSignal) => void;

const schedules = new WeakMap<Host, PeriodSchedule>();

export function setInFlightPeriods(host: Host, schedule: PeriodSchedule): void {
  schedules.set(host, schedule);
}

const everySecond: PeriodSchedule = (endPeriod, stop) => {
  const timer = setInterval(endPeriod, WATERMARK_PERIOD_MS).unref();
  stop.addEventListener('abort', () => clearInterval(timer), { once: true });
};

export const inFlightPeriods = (host: Host): PeriodSchedule => schedules.get(host) ?? everySecond;
