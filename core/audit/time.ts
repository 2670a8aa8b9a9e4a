// metav1.MicroTime's text: RFC 3339 in UTC with six fraction digits, from a clock that has them.
import { performance } from 'node:perf_hooks';

/** Milliseconds since the epoch, with a fraction (the microseconds). */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  const iso = new Date(whole).toISOString(); // 2026-12-01T06:20:57.123Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/** Go's time.RFC3339Nano of a MicroTime text: trailing fraction zeros dropped (and the dot, if all are). */
export function rfc3339Nano(micro: string): string {
  return micro.replace(/0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}
