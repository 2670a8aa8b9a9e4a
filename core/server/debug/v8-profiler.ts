// The V8 profilers behind /debug/pprof, through one in-process inspector session shared by every
// server of the process (several agents may run in one process). Node has no pprof: the CPU
// profile is V8's (a .cpuprofile document, as Chrome DevTools opens), and the heap profile is V8's
// sampling heap profile (a .heapprofile: sampled allocations still alive, by stack, as Go's default
// inuse_space heap profile is). A full heap snapshot is not offered: it holds the contents of every
// string in memory, the node's private keys and tokens included, which Go's heap profile never does.
import { Session } from 'node:inspector/promises';
import { sleep } from '../../abort-wait.js';

/** Go's runtime.MemProfileRate: one sample every 512 KiB allocated on average. */
const HEAP_SAMPLING_INTERVAL = 512 * 1024;

export class ProfilerBusyError extends Error {
  override readonly name = 'ProfilerBusyError';
}

class V8Profiler {
  #session: Session | undefined;
  #starting: Promise<Session> | undefined;
  #users = 0;
  #cpuBusy = false;

  /** Starts heap sampling for a server that enables profiling; pair with release(). */
  async acquire(): Promise<void> {
    this.#users++;
    await this.#open();
  }

  async release(): Promise<void> {
    if (--this.#users > 0 || !this.#session) return;
    const s = this.#session;
    this.#session = undefined;
    this.#starting = undefined;
    try { await s.post('HeapProfiler.stopSampling'); } catch { /* already stopped */ }
    s.disconnect();
  }

  #open(): Promise<Session> {
    this.#starting ??= (async () => {
      const s = new Session();
      s.connect();
      await s.post('HeapProfiler.enable');
      await s.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_INTERVAL });
      this.#session = s;
      return s;
    })();
    return this.#starting;
  }

  /** Samples the CPU for `ms` (or until `signal` aborts, then nothing is returned); one profile at a time, as Go's. */
  async cpuProfile(ms: number, signal: AbortSignal): Promise<unknown | undefined> {
    if (this.#cpuBusy) throw new ProfilerBusyError('cpu profiling already in use');
    this.#cpuBusy = true;
    const s = await this.#open();
    try {
      await s.post('Profiler.enable');
      await s.post('Profiler.start');
      await sleep(ms, signal);
      const completed = !signal.aborted;
      const { profile } = await s.post('Profiler.stop');
      await s.post('Profiler.disable');
      return completed ? profile : undefined;
    } finally {
      this.#cpuBusy = false;
    }
  }

  async heapProfile(): Promise<unknown> {
    const s = await this.#open();
    const { profile } = await s.post('HeapProfiler.getSamplingProfile');
    return profile;
  }
}

export const v8Profiler = new V8Profiler();
