// Upstream's ServiceAccountsController (pkg/controller/serviceaccount): every Active namespace has
// the service accounts to ensure (`default`). A namespace's add or update event, or the deletion
// of a service account in it, queues the namespace; one worker creates what the informer's cache
// does not hold. AlreadyExists is success, and a namespace that began terminating meanwhile is no
// failure (the create's NamespaceTerminating cause); other failures are retried through the
// default controller rate limiter (5 ms doubling to 1000 s, 10 qps overall).
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { Namespace } from '../../core/api/namespace.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { isApiError, type ResourceRef } from '../../core/client/rest-client.js';
import { defaultControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { runSyncedWorkers } from '../../core/controller/workers.js';
import { WorkQueue } from '../../core/controller/workqueue.js';

export const NAMESPACES: ResourceRef = { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace' };
export const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' };

/** DefaultServiceAccountsControllerOptions' ServiceAccounts. */
export const SERVICE_ACCOUNTS_TO_ENSURE: readonly string[] = ['default'];

/** apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause). */
function namespaceTerminating(e: unknown): boolean {
  if (!isApiError(e)) return false;
  const causes = (e.body as { details?: { causes?: { reason?: string }[] } } | undefined)?.details?.causes;
  return Array.isArray(causes) && causes.some((c) => c?.reason === 'NamespaceTerminating');
}

export interface ServiceAccountsControllerOptions {
  /** Names of the service accounts every Active namespace has. */
  readonly serviceAccounts: readonly string[];
  /** Upstream runs one. */
  readonly workers: number;
}

export function serviceAccountsController(ctx: ControllerContext, controllerName: string, o: ServiceAccountsControllerOptions): Runnable & { readonly queue: WorkQueue<string> } {
  const log = ctx.logger;
  const namespaces = ctx.informers.for<Namespace>(NAMESPACES);
  const serviceAccounts = ctx.informers.for<ApiObject>(SERVICE_ACCOUNTS);
  const queue = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'serviceaccount', metrics: ctx.metrics });

  namespaces.addHandlers({ add: (ns) => queue.add(ns.metadata.name ?? ''), update: (_old, ns) => queue.add(ns.metadata.name ?? '') });
  serviceAccounts.addHandlers({ delete: (sa) => queue.add(sa.metadata.namespace ?? '') });

  /** syncNamespace, which logs how long it took however it ended (its defer). */
  async function sync(name: string, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    try {
      await ensure(name, signal);
    } finally {
      log.v(4).info('Finished syncing namespace', { namespace: name, duration: `${((performance.now() - started) / 1000).toFixed(6)}s` });
    }
  }

  async function ensure(name: string, signal: AbortSignal): Promise<void> {
    const ns = namespaces.get(name);
    // Only an Active namespace gets anything: a Terminating one is being emptied.
    if (!ns || ns.status?.phase !== 'Active') return;
    const failures: string[] = [];
    for (const sa of o.serviceAccounts) {
      if (serviceAccounts.get(`${name}/${sa}`)) continue;
      try {
        await ctx.client.create({ ...SERVICE_ACCOUNTS, namespace: name }, { metadata: { name: sa, namespace: name } }, undefined, undefined, { signal });
        log.v(2).info('Created service account', { namespace: name, serviceAccount: sa });
      } catch (e) {
        if (isApiError(e, 'AlreadyExists') || namespaceTerminating(e)) continue;
        failures.push(goClientErrorText(e));
      }
    }
    // utilerrors.Flatten(NewAggregate(...)): one error as itself, several as [a, b].
    if (failures.length === 1) throw new Error(failures[0]);
    if (failures.length > 1) throw new Error(`[${failures.join(', ')}]`);
  }

  return {
    queue,
    run: (signal: AbortSignal) => runSyncedWorkers({
      name: controllerName, queue, workers: o.workers, logger: log, synced: [namespaces, serviceAccounts], fence: ctx.fence,
      sync: (key) => sync(key, signal),
      failure: (key, error) => `${key} failed with : ${error}`,
    }, signal),
  };
}
