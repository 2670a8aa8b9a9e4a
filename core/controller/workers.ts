// The worker loop of a controller: N workers take keys from the queue and run `sync`; a failed sync
// is retried through the rate limiter, a successful one resets the key's backoff. With `batch` > 1 a
// worker that finds many keys waiting takes up to that many and syncs them together, so a burst of
// work shares round trips (one signing-pool batch, status writes in flight together) while a lone
// key is still handled at once.
import type { Logger } from '../log.js';
import { goClientErrorText } from '../client/go-url-error.js';
import { whenAborted } from '../abort-wait.js';
import type { WorkQueue } from './workqueue.js';
import { FencedWriteError, wasSent, type WriteFence } from '../client/write-fence.js';

/** A sync the fence did not let start: its message is the fence's reason. */
class FencedSyncError extends Error {}

/** An expected failure (retried quietly, logged at V(4)), as upstream's ignorableError. */
export class IgnorableError extends Error {
  override readonly name = 'IgnorableError';
}

export interface WorkersOptions<K> {
  readonly name: string;
  readonly queue: WorkQueue<K>;
  readonly workers: number;
  /** Most keys one worker syncs together; default 1. */
  readonly batch?: number;
  sync(key: K): Promise<void>;
  readonly logger: Logger;
  /** The `err` of a failed sync's log line, upstream's words for it; default `Sync <key> failed with : <error>`. */
  failure?(key: K, error: string): string;
  /** Asked before each sync (the controller manager's leadership): a refusal leaves the key for later, unsynced. */
  readonly fence?: WriteFence | undefined;
}

async function syncOne<K>(o: WorkersOptions<K>, key: K, signal: AbortSignal): Promise<void> {
  try {
    const refused = o.fence?.refusal();
    if (refused !== undefined) throw new FencedSyncError(refused);
    await o.sync(key);
    o.queue.forget(key);
  } catch (e) {
    o.queue.addRateLimited(key);
    // A sync whose requests the stop abandoned (shutdown, leadership lost) did not fail: the key is
    // left for the next leader. A stop under load would otherwise log every key in flight as an error.
    // Otherwise upstream's texts (certificate_controller.go processNextWorkItem; an error goes through
    // utilruntime.HandleError, which logs "Unhandled Error"), so a grep for them finds these lines.
    // The error stays in a quoted field: its text is the API server's or a plugin's, not ours.
    // A sync (or a write of it) the leadership fence held back sent nothing: abandoned, truly.
    if (e instanceof FencedSyncError || e instanceof FencedWriteError) o.logger.v(2).info(`sync ${String(key)} abandoned: ${e instanceof FencedSyncError ? 'not started' : 'its write was not sent'}: ${e instanceof FencedSyncError ? e.message : e.message.replace(/^.*? not sent: /, '')}`, { controller: o.name });
    // A write that had gone out when the stop aborted it may have landed: not called abandoned.
    else if (signal.aborted && wasSent(e)) o.logger.v(2).info(`sync ${String(key)} cut short: the controller is stopping; a write it had sent may have landed`, { controller: o.name, err: (e as Error).message });
    else if (signal.aborted) o.logger.v(4).info(`sync ${String(key)} abandoned: the controller is stopping`, { controller: o.name, err: (e as Error).message });
    else if (e instanceof IgnorableError) o.logger.v(4).info('Sync certificate request failed', { csr: String(key), err: e.message, controller: o.name });
    else o.logger.error('Unhandled Error', { err: o.failure ? o.failure(key, goClientErrorText(e)) : `Sync ${String(key)} failed with : ${goClientErrorText(e)}`, controller: o.name });
  } finally {
    o.queue.done(key);
  }
}

async function worker<K>(o: WorkersOptions<K>, signal: AbortSignal): Promise<void> {
  const batch = Math.max(1, Math.floor(o.batch ?? 1));
  for (;;) {
    const keys = await o.queue.getBatch(batch);
    if (keys === undefined) return;
    await Promise.all(keys.map((k) => syncOne(o, k, signal)));
  }
}

/** Runs the workers until the signal aborts, then shuts the queue down and waits for them. */
export async function runWorkers<K>(o: WorkersOptions<K>, signal: AbortSignal): Promise<void> {
  const running = Array.from({ length: Math.max(1, o.workers) }, () => worker(o, signal));
  await whenAborted(signal);
  await o.queue.shutDown();
  await Promise.all(running);
}

/** What a controller waits on before its workers start. */
interface Synced { waitForSync(signal: AbortSignal): Promise<unknown> }

/**
 * A queue-driven controller's Run, as upstream's controllers write it: `Starting controller`, wait
 * for the informers' caches (WaitForNamedCacheSync), the workers until the signal aborts, then
 * `Shutting down controller` (its defer, also when the caches never synced).
 */
export async function runSyncedWorkers<K>(o: WorkersOptions<K> & { readonly synced: readonly Synced[] }, signal: AbortSignal): Promise<void> {
  o.logger.info('Starting controller', { controller: o.name });
  await Promise.all(o.synced.map((s) => s.waitForSync(signal)));
  if (!signal.aborted) await runWorkers(o, signal);
  o.logger.info('Shutting down controller', { controller: o.name });
}
