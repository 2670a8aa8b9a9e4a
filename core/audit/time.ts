// metav1.MicroTime's text (go-time.ts's RFC3339Micro, in UTC) from a clock that has microseconds:
// upstream's event timestamps carry them, and Date.now() has only milliseconds.
import { performance } from 'node:perf_hooks';
import { formatGoTime, RFC3339_MICRO } from '../api/go-time.js';

// performance.now() is monotonic and does not follow the wall clock's corrections (an NTP step,
// drift over weeks of uptime): anchored once, audit times would wander from every other log. The
// anchor is moved whenever the two part by more than a millisecond.
let anchor = performance.timeOrigin;

/** Milliseconds since the epoch, with a fraction (the microseconds), within 1 ms of Date.now(). */
export function preciseNow(): number {
  const since = performance.now();
  const wall = Date.now();
  if (Math.abs(anchor + since - wall) > 1) anchor = wall - since;
  return anchor + since;
}

/** A preciseNow reading as a MicroTime; past the microsecond, truncated as Go's Format truncates. */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  const seconds = Math.floor(whole / 1000);
  return formatGoTime({ seconds, nanos: (whole - seconds * 1000) * 1_000_000 + micros * 1000 }, RFC3339_MICRO);
}

