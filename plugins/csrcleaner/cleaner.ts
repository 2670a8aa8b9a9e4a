// The cleaning loop (upstream's CSRCleanerController with its one worker): once the shared CSR
// informer has synced, sweep the cached CSRs now and then every interval, deleting each one a
// cleanup rule matches. A failed delete is logged and retried at the next sweep; a stop ends the
// sweep in progress.
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import { setImmediate } from 'node:timers/promises';
import { sleep } from '../../core/abort-wait.js';
import { cleanupReason } from './cleanup-rules.js';

/** CSRs a sweep checks between two turns of the event loop. */
export const SWEEP_CHUNK = 16;

export interface CleanerOptions {
  /** Time between sweeps (upstream's pollingInterval, 1h). */
  readonly intervalMs: number;
  readonly now: () => Date;
}

export function csrCleaner(ctx: ControllerContext, o: CleanerOptions): Runnable & { sweep(signal?: AbortSignal): Promise<void> } {
  const log = ctx.logger;
  const informer = ctx.informers.for<Csr>(CSR_RESOURCE);

  /**
   * One pass over the cache; `signal` (run()'s: leadership lost, shutdown) ends it and abandons the
   * deletion in flight, as upstream's Delete(ctx) on the cancelled leader context.
   */
  async function sweep(signal?: AbortSignal): Promise<void> {
    const now = o.now();
    let examined = 0;
    for (const csr of informer.list()) {
      // Upstream's sweep runs on a goroutine of its own; here it shares the event loop with the
      // leader election's renewals (and, in plat all, the API server): tens of thousands of CSRs
      // checked in one go would hold them up for seconds.
      if (++examined % SWEEP_CHUNK === 0) await setImmediate();
      if (signal?.aborted) return;
      const name = csr.metadata.name ?? '';
      const reason = cleanupReason(csr, now);
      if (!reason) continue;
      log.info(reason.message, { csr: name, ...reason.fields });
      try {
        await ctx.client.delete(CSR_RESOURCE, name, undefined, signal ? { signal } : {});
      } catch (e) {
        if (signal?.aborted) return;
        log.error('Error while attempting to clean CSR', { err: `unable to delete CSR "${name}": ${goClientErrorText(e)}`, csr: name });
      }
    }
  }

  return {
    sweep,
    async run(signal: AbortSignal): Promise<void> {
      log.info('Starting CSR cleaner controller');
      await informer.waitForSync(signal);
      while (!signal.aborted) {
        await sweep(signal);
        await sleep(o.intervalMs, signal);
      }
      log.info('Shutting down CSR cleaner controller');
    },
  };
}
