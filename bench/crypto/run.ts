// The measuring loop: a warm-up, then a timed loop of at least the asked duration counting
// operations. Calls are batched between clock reads (the batch doubles while a batch takes under
// 2 ms), so reading the clock costs nothing measurable even for sub-microsecond operations.
import { performance } from 'node:perf_hooks';
import type { Prepared } from './impl.js';

export interface Measurement {
  ops: number;
  seconds: number;
  opsPerSec: number;
  usPerOp: number;
}

/** The warm-up for a timed loop of `seconds`: a quarter of it, at most half a second. */
export function warmupSeconds(seconds: number): number {
  return Math.min(0.5, seconds / 4);
}

// Results go here so no engine can treat a call as dead code.
let sink: unknown;

async function loop(p: Prepared, isAsync: boolean, ms: number, tick?: (fraction: number) => void): Promise<{ calls: number; ms: number }> {
  let calls = 0;
  let batch = 1;
  const t0 = performance.now();
  let now = t0;
  for (;;) {
    const b0 = now;
    if (isAsync) for (let i = 0; i < batch; i++) sink = await p.run();
    else for (let i = 0; i < batch; i++) sink = p.run();
    calls += batch;
    now = performance.now();
    tick?.(Math.min(1, (now - t0) / ms));
    if (now - t0 >= ms) return { calls, ms: now - t0 };
    if (now - b0 < 2) batch *= 2;
  }
}

/**
 * Times `p.run`: warm-up, then at least `seconds` of calls. `tick` gets the fraction done of the
 * whole (warm-up + timed) measurement.
 */
export async function measure(p: Prepared, seconds: number, tick?: (fraction: number) => void): Promise<Measurement> {
  const first = p.run();
  const isAsync = typeof (first as { then?: unknown } | null)?.then === 'function';
  if (isAsync) sink = await first;
  const warm = warmupSeconds(seconds);
  const total = warm + seconds;
  await loop(p, isAsync, warm * 1000, tick && ((f) => tick((f * warm) / total)));
  const timed = await loop(p, isAsync, seconds * 1000, tick && ((f) => tick((warm + f * seconds) / total)));
  const ops = timed.calls * (p.opsPerCall ?? 1);
  const secs = timed.ms / 1000;
  void sink;
  return { ops, seconds: secs, opsPerSec: ops / secs, usPerOp: (secs * 1e6) / ops };
}

