// client_golang's process collector (legacyregistry registers it raw, so no stability level):
// CPU time, memory, file descriptors and start time of this process, read from /proc when
// scraped (the resident size from Node, which reads /proc/self/statm knowing the page size). Where /proc is missing (not Linux) the figures it gives are left out, as the
// collector leaves out what it cannot read.
import { readdirSync, readFileSync } from 'node:fs';
import type { CollectedSample, MetricsRegistry } from './registry.js';

/** procfs assumes USER_HZ 100 on Linux, as client_golang does. */
const USER_HZ = 100;

interface Stat { cpuSeconds: number; virtualBytes: number; startSeconds: number }

function readStat(): Stat | undefined {
  try {
    const text = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command, which may itself hold spaces and parentheses.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? NaN);
    // f[0] is field 3 (state): utime 14, stime 15, starttime 22, vsize 23.
    return {
      cpuSeconds: (Number(f[11]) + Number(f[12])) / USER_HZ,
      startSeconds: btime + Number(f[19]) / USER_HZ,
      virtualBytes: Number(f[20]),
    };
  } catch {
    return undefined;
  }
}

function openFds(): number | undefined {
  try { return readdirSync('/proc/self/fd').length; } catch { return undefined; }
}

/** RLIM_INFINITY as the uint64 procfs reads it, which the collector turns into a float64. */
const RLIM_INFINITY = 18446744073709551615;

/** A soft limit of /proc/self/limits (`Max open files`, `Max address space`). */
function softLimit(name: string, unlimited: number): number | undefined {
  try {
    const soft = new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return soft === undefined ? undefined : soft === 'unlimited' ? unlimited : Number(soft);
  } catch {
    return undefined;
  }
}

const one = (v: number | undefined): CollectedSample[] => (v === undefined || Number.isNaN(v) ? [] : [[[], v]]);

export function registerProcessMetrics(registry: MetricsRegistry): void {
  const raw = { raw: true } as const;
  registry.collector('counter', { ...raw, name: 'process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.' }, () => one(readStat()?.cpuSeconds));
  registry.collector('gauge', { ...raw, name: 'process_open_fds', help: 'Number of open file descriptors.' }, () => one(openFds()));
  registry.collector('gauge', { ...raw, name: 'process_max_fds', help: 'Maximum number of open file descriptors.' }, () => one(softLimit('Max open files', Infinity)));
  registry.collector('gauge', { ...raw, name: 'process_virtual_memory_bytes', help: 'Virtual memory size in bytes.' }, () => one(readStat()?.virtualBytes));
  registry.collector('gauge', { ...raw, name: 'process_virtual_memory_max_bytes', help: 'Maximum amount of virtual memory available in bytes.' }, () => one(softLimit('Max address space', RLIM_INFINITY)));
  registry.collector('gauge', { ...raw, name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.' }, () => one(process.memoryUsage.rss()));
  registry.collector('gauge', { ...raw, name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.' }, () => one(readStat()?.startSeconds));
}
