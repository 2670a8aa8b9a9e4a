// Upstream's TokenCleaner (pkg/controller/bootstrap/tokencleaner.go): deletes bootstrap token
// Secrets once their `expiration` has passed. The shared Secret informer queues the bootstrap
// tokens of plat-system on their add and update events; one worker deletes an expired one (an
// unparseable expiration counts as expired, as cluster-bootstrap reads it) and queues one that
// expires later again for the moment it does, so that it goes then with no other event.
import type { ApiObject } from '../../core/api/meta.js';
import { BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_TYPE, bootstrapTokenExpiration, type BootstrapSecretLike } from '../../core/bootstrap-token.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { isApiError, type ResourceRef } from '../../core/client/rest-client.js';
import { objectKey } from '../../core/controller/informer.js';
import { defaultControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { runSyncedWorkers } from '../../core/controller/workers.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { formatDuration } from '../../core/flags/duration.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';

export const SECRETS: ResourceRef = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };

type Secret = ApiObject & BootstrapSecretLike & { readonly type?: string };

export interface TokenCleanerOptions {
  readonly now: () => Date;
}

export function tokenCleaner(ctx: ControllerContext, controllerName: string, o: TokenCleanerOptions): Runnable & { readonly queue: WorkQueue<string> } {
  const log = ctx.logger;
  // The shared informer of all Secrets, filtered here, as upstream's: a field selector would cost
  // an informer of its own, and the controller manager lists Secrets anyway.
  const secrets = ctx.informers.for<Secret>(SECRETS);
  const queue = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'token_cleaner', metrics: ctx.metrics });

  const isBootstrapToken = (s: Secret) => s.type === BOOTSTRAP_TOKEN_SECRET_TYPE && s.metadata.namespace === BOOTSTRAP_TOKEN_NAMESPACE;
  const enqueue = (s: Secret) => { if (isBootstrapToken(s)) queue.add(objectKey(s)); };
  secrets.addHandlers({ add: enqueue, update: (_old, s) => enqueue(s) });

  /** syncFunc, which logs how long it took however it ended (its defer). */
  async function sync(key: string, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    try {
      const secret = secrets.get(key);
      if (!secret) { log.v(3).info('Secret has been deleted', { secret: key }); return; }
      if (secret.type === BOOTSTRAP_TOKEN_SECRET_TYPE) await evalSecret(key, secret, signal);
    } finally {
      log.v(4).info('Finished syncing secret', { secret: key, elapsedTime: formatDuration(performance.now() - started) });
    }
  }

  async function evalSecret(key: string, secret: Secret, signal: AbortSignal): Promise<void> {
    const expiration = bootstrapTokenExpiration(secret, o.now());
    if (!expiration.expired) {
      // No expiration at all leaves the token be for good.
      if (expiration.remainingMs > 0) queue.addAfter(key, expiration.remainingMs);
      return;
    }
    log.v(3).info(expiration.message);
    log.v(3).info('Deleting expired secret', { secret: key });
    const uid = secret.metadata.uid;
    // The UID precondition: a token made again under the same name meanwhile is not this one.
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', ...(uid ? { preconditions: { uid } } : {}) };
    try {
      await ctx.client.delete({ ...SECRETS, namespace: secret.metadata.namespace ?? '' }, secret.metadata.name ?? '', options, { signal });
    } catch (e) {
      // Gone already, or another object under its name: nothing to do. Otherwise it is not retried
      // until the Secret's next event, as upstream's.
      if (signal.aborted || isApiError(e, 'Conflict') || isApiError(e, 'NotFound')) return;
      log.v(3).info('Error deleting secret', { err: goClientErrorText(e) });
    }
  }

  return {
    queue,
    run: (signal: AbortSignal) => runSyncedWorkers({ name: controllerName, queue, workers: 1, logger: log, synced: [secrets], fence: ctx.fence, sync: (key) => sync(key, signal) }, signal),
  };
}
