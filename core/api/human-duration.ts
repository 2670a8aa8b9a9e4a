// apimachinery's duration.HumanDuration and ShortHumanDuration: the AGE-style strings kubectl
// users know (`10m`, `3h5m`, `2d4h`). Go truncates toward zero at every step; so do we.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const whole = (ms: number, unit: number): number => Math.trunc(ms / unit);

/** Go's `int(d.Seconds())` check: up to 2 s (exclusive) in the future still reads as "now". */
function almostNow(ms: number): string | undefined {
  const seconds = whole(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  return undefined;
}

/** duration.HumanDuration: two units of precision where the number is small. */
export function humanDuration(ms: number): string {
  const early = almostNow(ms);
  if (early !== undefined) return early;
  const seconds = whole(ms, SECOND);
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 8 * 24) {
    const h = hours % 24;
    return h === 0 ? `${whole(hours, 24)}d` : `${whole(hours, 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${whole(hours, 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = whole(hours, 24) % 365;
    return days === 0 ? `${whole(hours, 24 * 365)}y` : `${whole(hours, 24 * 365)}y${days}d`;
  }
  return `${whole(hours, 24 * 365)}y`;
}

/** duration.ShortHumanDuration: one unit only. */
export function shortHumanDuration(ms: number): string {
  const early = almostNow(ms);
  if (early !== undefined) return early;
  const seconds = whole(ms, SECOND);
  if (seconds < 60) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${whole(hours, 24)}d`;
  return `${whole(hours, 24 * 365)}y`;
}

/** The Age column of server-side tables: the human duration since `timestamp`, `<unknown>` without one. */
export function age(timestamp: string | null | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now.getTime() - t);
}
