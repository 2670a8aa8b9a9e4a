// Upstream's NamespaceController: the shared namespace informer queues each namespace being deleted
// (namespaceDeletionGracePeriod after the event, so that every API server has seen the deletion
// and refuses new content before the content is listed), workers run the deleter on it, content
// still being finalized is looked at again after half its estimate plus a second, and any other
// failure is retried through the rate limiter (5 ms doubling to a minute, 10 qps overall).
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import { whenAborted } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { NAMESPACE_RESOURCE, NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter.js';
import type { Namespace } from '../../core/api/namespace.js';

export interface NamespaceControllerOptions {
  /** namespaceDeletionGracePeriod (5 s): the wait between a namespace's event and its sync. */
  readonly deletionGracePeriodMs: number;
  /** --concurrent-namespace-syncs. */
  readonly workers: number;
  /** --namespace-sync-period: every namespace being deleted is queued again this often (the informer handler's resync). */
  readonly resyncMs: number;
  readonly now: () => Date;
}

/** nsControllerRateLimiter. */
const namespaceRateLimiter = () => new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 60_000), new BucketRateLimiter<string>(10, 100));

export function namespaceController(ctx: ControllerContext, controllerName: string, o: NamespaceControllerOptions): Runnable & { readonly queue: WorkQueue<string> } {
  const log = ctx.logger;
  const informer = ctx.informers.for<Namespace>(NAMESPACE_RESOURCE);
  const queue = new WorkQueue<string>(namespaceRateLimiter(), { name: 'namespace', metrics: ctx.metrics });
  const deleter = new NamespacedResourcesDeleter(ctx.client, log, o.now);

  const enqueue = (ns: Namespace): void => {
    if (!ns.metadata.deletionTimestamp) return;
    queue.addAfter(ns.metadata.name ?? '', o.deletionGracePeriodMs);
  };
  informer.addHandlers({ add: enqueue, update: (_old, ns) => enqueue(ns) });

  /** syncNamespaceFromKey, with the worker's handling of its outcome. */
  async function sync(key: string, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    try {
      if (!informer.get(key)) {
        log.info('Namespace has been deleted', { namespace: key });
      } else {
        await deleter.delete(key, signal);
      }
      queue.forget(key);
    } catch (e) {
      if (signal.aborted) {
        log.v(4).info(`sync ${key} abandoned: the controller is stopping`, { namespace: key, err: (e as Error).message });
      } else if (e instanceof ResourcesRemainingError) {
        const waitSeconds = Math.floor(e.estimate / 2) + 1;
        log.v(4).info('Content remaining in namespace', { namespace: key, waitSeconds });
        queue.addAfter(key, waitSeconds * 1000);
      } else {
        queue.addRateLimited(key);
        log.error('Unhandled Error', { err: `deletion of namespace ${key} failed: ${goClientErrorText(e)}` });
      }
    } finally {
      log.v(4).info('Finished syncing namespace', { namespace: key, duration: `${((performance.now() - started) / 1000).toFixed(6)}s` });
      queue.done(key);
    }
  }

  async function worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      await sync(key, signal);
    }
  }

  return {
    queue,
    async run(signal: AbortSignal): Promise<void> {
      log.info('Starting controller', { controller: controllerName });
      await informer.waitForSync(signal);
      if (!signal.aborted) {
        log.v(5).info('Starting workers of namespace controller');
        const resync = o.resyncMs > 0 ? setInterval(() => { for (const ns of informer.list()) enqueue(ns); }, o.resyncMs) : undefined;
        const running = Array.from({ length: Math.max(0, o.workers) }, () => worker(signal));
        await whenAborted(signal);
        if (resync) clearInterval(resync);
        await queue.shutDown();
        await Promise.all(running);
      }
      log.info('Shutting down controller', { controller: controllerName });
    },
  };
}
