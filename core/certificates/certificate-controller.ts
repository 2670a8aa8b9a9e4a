// The frame the CSR controllers share (upstream's certificate_controller.go, k8s-behaviour §4.1):
// the shared CSR informer's add, update and delete events enqueue the name; N workers sync names
// from the queue with csrControllerRateLimiter retries; a sync skips deleted CSRs and any CSR that
// already has a certificate, and hands the handler a deep copy so the shared cache stays untouched.
import type { ControllerContext, Runnable } from '../lifecycle.js';
import { objectKey } from '../controller/informer.js';
import { csrControllerRateLimiter } from '../controller/rate-limiters.js';
import { runWorkers, type WorkersOptions } from '../controller/workers.js';
import { WorkQueue } from '../controller/workqueue.js';
import { formatDuration } from '../flags/duration.js';
import type { Logger } from '../log.js';
import type { Informer, InformerHandlers } from '../controller/informer.js';
import { CSR_RESOURCE, hasCertificate, type Csr } from './csr-object.js';

/**
 * The client name upstream's CSR controllers (signing, approving, cleaning) take from its
 * ClientBuilder: under --use-service-account-credentials they act as service account
 * plat-system/certificate-controller, which the bootstrap RBAC policy binds to
 * system:controller:certificate-controller.
 */
export const CERTIFICATE_CONTROLLER_CLIENT = 'certificate-controller';

/** Upstream's queue Name of every controller built on NewCertificateController (signing, approving). */
export const CERTIFICATE_QUEUE = 'certificate';

export interface CertificateControllerOptions {
  /** Controller name, for logs ("csrapproving"). */
  readonly name: string;
  readonly workers: number;
  /**
   * Called with a private copy of a CSR that has no certificate yet; a throw retries it. `signal`
   * is run()'s: its requests are abandoned when the controller is told to stop.
   */
  handle(csr: Csr, signal: AbortSignal): Promise<void>;
}

/** Upstream's event handlers: a V(4) line per event, then the enqueue. */
export function certificateEventHandlers<T extends Csr>(log: Logger, enqueue: (csr: T) => void): Required<InformerHandlers<T>> {
  return {
    add: (csr) => { log.v(4).info('Adding certificate request', { csr: csr.metadata.name }); enqueue(csr); },
    // Upstream names the old object under `old` here (not `csr`, as its add and delete lines do).
    update: (old, csr) => { log.v(4).info('Updating certificate request', { old: old.metadata.name }); enqueue(csr); },
    delete: (csr) => { log.v(4).info('Deleting certificate request', { csr: csr.metadata.name }); enqueue(csr); },
  };
}

/** Runs one sync with upstream's V(4) line at its end, whatever the outcome. */
export async function timedCertificateSync(log: Logger, key: string, sync: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await sync();
  } finally {
    log.v(4).info('Finished syncing certificate request', { csr: key, elapsedTime: formatDuration(performance.now() - started) });
  }
}

/**
 * Upstream's Run after its Starting line: cache.WaitForNamedCacheSync("certificate-<name>"), the
 * workers, then Shutting down. A stop before the cache syncs shuts the queue down unworked, with
 * WaitForNamedCacheSync's failure (through utilruntime.HandleError, hence "Unhandled Error"). A
 * cache found synced is reported synced even when the stop has come too: WaitForCacheSync's poll
 * looks at the cache before it looks at the stop. The workers upstream then starts on the closed
 * stop channel never run a sync, so none is run here either.
 */
export async function runCertificateWorkers(informer: Informer<Csr>, workers: WorkersOptions<string>, signal: AbortSignal): Promise<void> {
  const { name, logger: log } = workers;
  log.info(`Waiting for caches to sync for certificate-${name}`);
  await informer.waitForSync(signal);
  if (informer.hasSynced) log.info(`Caches are synced for certificate-${name}`);
  else log.error('Unhandled Error', { err: `unable to sync caches for certificate-${name}` });
  if (signal.aborted) await workers.queue.shutDown();
  else await runWorkers(workers, signal);
  log.info('Shutting down certificate controller', { name });
}

export function certificateController(ctx: ControllerContext, o: CertificateControllerOptions): Runnable {
  const log = ctx.logger;
  const informer = ctx.informers.for<Csr>(CSR_RESOURCE);
  const queue = new WorkQueue<string>(csrControllerRateLimiter<string>(), { name: CERTIFICATE_QUEUE, metrics: ctx.metrics });
  const enqueue = (csr: Csr) => queue.add(objectKey(csr));
  informer.addHandlers(certificateEventHandlers(log, enqueue));

  let runSignal: AbortSignal = new AbortController().signal;
  const sync = (key: string): Promise<void> => timedCertificateSync(log, key, async () => {
    const cached = informer.get(key);
    if (!cached) { log.v(3).info('csr has been deleted', { csr: key }); return; }
    if (hasCertificate(cached)) return;
    await o.handle(structuredClone(cached), runSignal);
  });

  return {
    async run(signal: AbortSignal): Promise<void> {
      runSignal = signal;
      log.info('Starting certificate controller', { name: o.name });
      await runCertificateWorkers(informer, { name: o.name, queue, workers: o.workers, sync, logger: log, fence: ctx.fence }, signal);
    },
  };
}
