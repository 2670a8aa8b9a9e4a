// Periodic compaction, as kube-apiserver runs it (--store-compaction-interval, default 5m, 0
// disables): each tick compacts to the revision observed at the previous tick, so at least one
// interval of history always stays available for watches and snapshot lists to resume from.
import { setLongTimeout } from '../long-timeout.js';
import { silentLogger, type Logger } from '../log.js';
import { isStorageError, type Storage } from './storage.js';

export interface CompactorOptions {
  /** Injectable for tests; default setLongTimeout (unref'd so the compactor never keeps the process alive). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  logger?: Logger;
}

export interface Compactor {
  stop(): void;
}

export function startCompactor(storage: Storage, intervalMs: number, opts: CompactorOptions = {}): Compactor {
  if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError('compaction interval must be a non-negative number of milliseconds');
  if (intervalMs === 0) return { stop() {} };
  const logger = opts.logger ?? silentLogger;
  // --store-compaction-interval=1000h must mean 1000h: a plain setTimeout would compact every 1 ms.
  const setTimer = opts.setTimer ?? ((fn, ms) => setLongTimeout(fn, ms, { unref: true }));
  const clearTimer = opts.clearTimer ?? ((cancel) => (cancel as () => void)());

  let stopped = false;
  let timer: unknown;
  // Revision seen at the previous tick; 0 until the first tick has observed one.
  let observed = 0;

  const tick = async (): Promise<void> => {
    try {
      const current = await storage.currentRevision();
      if (observed > 0) await storage.compact(observed);
      observed = current;
    } catch (e) {
      // A closed storage means shutdown raced the timer; anything else is retried next interval,
      // keeping the old observed revision as kube-apiserver does.
      if (isStorageError(e, 'Closed')) {
        stopped = true;
        return;
      }
      logger.error('storage compaction failed', { engine: storage.engine, revision: observed, error: String(e) });
    }
  };

  // A timeout re-armed after each tick rather than an interval: a slow compaction never overlaps
  // the next one.
  const arm = () => {
    timer = setTimer(() => {
      void tick().then(() => {
        if (!stopped) arm();
      });
    }, intervalMs);
  };
  arm();

  return {
    stop() {
      stopped = true;
      clearTimer(timer);
    },
  };
}
