// Turning one timed phase into numbers: throughput over the wall time of the phase, nearest-rank
// latency percentiles, and the CPU the measured processes spent (from /proc on Linux, where the
// servers' share of a shared 2-core machine is the honest cost per certificate).
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface PhaseNumbers {
  readonly certs: number;
  readonly seconds: number;
  readonly certsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** CPU milliseconds per certificate of the server processes (null where /proc is not there). */
  readonly serverCpuMsPerCert: number | null;
  /**
   * CPU milliseconds per certificate of the busiest server process's main thread (its event loop:
   * the part of a node server that cannot use a second core, so 1000 / this bounds certificates per
   * second); null for servers that are not node processes, or without /proc.
   */
  readonly eventLoopCpuMsPerCert: number | null;
  /** CPU milliseconds per certificate of the benchmark's own process (the load generator). */
  readonly harnessCpuMsPerCert: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const TICKS_PER_SECOND = 100; // USER_HZ on every Linux platform node supports.

/** utime + stime of a process in milliseconds, or null when it cannot be read. */
export function processCpuMs(pid: number | undefined): number | null {
  return pid === undefined ? null : statCpuMs(`/proc/${pid}/stat`);
}

/** utime + stime of a process's main thread (the thread whose id is the pid) in milliseconds. */
export function mainThreadCpuMs(pid: number | undefined): number | null {
  return pid === undefined ? null : statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file: string): number | null {
  if (os.platform() !== 'linux') return null;
  try {
    const stat = readFileSync(file, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Starts measuring; `done()` gives the phase's numbers. `eventLoops`: the servers are node
 * processes, whose main threads are measured on their own too.
 */
function startPhase(serverPids: () => readonly (number | undefined)[], o: { eventLoops?: boolean } = {}): { done(latenciesMs: number[]): PhaseNumbers } {
  const cpuOf = () => {
    const each = serverPids().map(processCpuMs);
    return each.some((v) => v === null) ? null : each.reduce<number>((a, b) => a + b!, 0);
  };
  const loopsOf = () => (o.eventLoops ? serverPids().map(mainThreadCpuMs) : []);
  const serverCpu0 = cpuOf();
  const loops0 = loopsOf();
  const harnessCpu0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    done(latenciesMs) {
      const seconds = (performance.now() - t0) / 1000;
      const serverCpu1 = cpuOf();
      const loops1 = loopsOf();
      const loopDeltas = loops1.map((v, i) => (v === null || loops0[i] == null ? null : v - loops0[i]!));
      const harness = process.cpuUsage(harnessCpu0);
      const certs = latenciesMs.length;
      const sorted = [...latenciesMs].sort((a, b) => a - b);
      const per = (ms: number) => (certs > 0 ? ms / certs : 0);
      return {
        certs, seconds,
        certsPerSec: seconds > 0 ? certs / seconds : 0,
        p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? 0,
        serverCpuMsPerCert: serverCpu0 === null || serverCpu1 === null ? null : per(serverCpu1 - serverCpu0),
        eventLoopCpuMsPerCert: loopDeltas.length === 0 || loopDeltas.some((d) => d === null) ? null : per(Math.max(...(loopDeltas as number[]))),
        harnessCpuMsPerCert: per((harness.user + harness.system) / 1000),
      };
    },
  };
}

/** A timed phase: `task(i)` for i in [0, n), `width` at once, each one's latency recorded. */
export async function timedPhase(
  n: number, width: number, serverPids: () => readonly (number | undefined)[], o: { eventLoops?: boolean }, task: (i: number) => Promise<void>,
): Promise<PhaseNumbers> {
  const latencies: number[] = [];
  const phase = startPhase(serverPids, o);
  await inParallel(n, width, async (i) => {
    const t0 = performance.now();
    await task(i);
    latencies.push(performance.now() - t0);
  });
  return phase.done(latencies);
}

/** Runs `task(i)` for i in [0, n) with at most `width` running at once. */
export async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(Array.from({ length: Math.min(width, n) }, async () => {
    while (next < n && !failed) {
      try {
        await task(next++);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  }));
}
