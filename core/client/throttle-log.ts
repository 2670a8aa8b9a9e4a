// client-go's tryThrottleWithInfo lines: a request held back by the client's own rate limit for
// more than 50ms says so at V(3), and over a second also through the process-wide throttled
// logger (at V(2) at most once a second when -v is 2 or more, else at V(0) at most every 10s), so
// that an operator sees why requests are slow without a line per request.
import type { Logger } from '../log.js';
import { formatDuration } from '../flags/duration.js';

const LONG_THROTTLE_MS = 50;
const EXTRA_LONG_THROTTLE_MS = 1000;

interface ThrottleSetting { readonly level: number; readonly minIntervalMs: number; last: number }

/** globalThrottledLogger: one per process, as upstream's package variable. */
const SETTINGS: ThrottleSetting[] = [
  { level: 2, minIntervalMs: 1000, last: -Infinity },
  { level: 0, minIntervalMs: 10_000, last: -Infinity },
];

/** The first setting whose level is enabled decides; it logs only if its interval has passed. */
function throttledLevel(logger: Logger, now: number): number | undefined {
  for (const s of SETTINGS) {
    if (s.level !== 0 && !logger.v(s.level).enabled) continue;
    if (now - s.last < s.minIntervalMs) return undefined;
    s.last = now;
    return s.level;
  }
  return undefined;
}

/**
 * `retryInfo`: withRetry's reason when the wait was before a retry the server asked for.
 * `url`: the request's URL with its query, as Request.URL().String().
 */
export function logThrottle(logger: Logger | undefined, latencyMs: number, verb: string, url: string, retryInfo?: string, now = performance.now()): void {
  if (!logger) return;
  const message = retryInfo
    ? `Waited for ${formatDuration(latencyMs)}, ${retryInfo} - request: ${verb}:${url}`
    : `Waited for ${formatDuration(latencyMs)} due to client-side throttling, not priority and fairness, request: ${verb}:${url}`;
  if (latencyMs > LONG_THROTTLE_MS) logger.v(3).info(message);
  if (latencyMs > EXTRA_LONG_THROTTLE_MS) {
    const level = throttledLevel(logger, now);
    if (level !== undefined) logger.v(level).info(message);
  }
}
