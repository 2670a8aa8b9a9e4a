// A certificate controller told to stop when its cache has already synced: upstream's
// WaitForNamedCacheSync polls the cache before it looks at the stop, so it logs `Caches are synced
// for certificate-<name>` (not its failure), and the workers it starts on the closed stop channel
// never sync a key. A cache still unsynced at the stop is the failure, as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCertificateWorkers } from '../../core/certificates/certificate-controller.js';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { Informer } from '../../core/controller/informer.js';
import { ItemExponentialFailureRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { createLogger } from '../../core/log.js';

/** The two members runCertificateWorkers reads of an informer. */
const informer = (synced: boolean) => ({ hasSynced: synced, waitForSync: async () => {} }) as unknown as Informer<Csr>;

async function stoppedRun(synced: boolean): Promise<{ lines: string[]; syncs: number; shutDown: boolean }> {
  const lines: string[] = [];
  const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
  queue.add('waiting-csr');
  let syncs = 0;
  const stop = new AbortController();
  stop.abort();
  await runCertificateWorkers(informer(synced), {
    name: 'csrsigning-x', queue, workers: 2, logger: createLogger({ write: (l) => lines.push(l) }),
    sync: async () => { syncs++; },
  }, stop.signal);
  return { lines, syncs, shutDown: queue.shuttingDown };
}

describe('runCertificateWorkers stopped as its cache syncs', () => {
  it('a cache already synced is reported synced, and no key is synced', async () => {
    const r = await stoppedRun(true);
    assert.ok(r.lines.some((l) => /^I.* Caches are synced for certificate-csrsigning-x$/.test(l)), r.lines.join('\n'));
    assert.ok(!r.lines.some((l) => l.includes('unable to sync caches')), r.lines.join('\n'));
    assert.equal(r.syncs, 0);
    assert.ok(r.shutDown, 'the queue is shut down');
    assert.match(r.lines.at(-1)!, /Shutting down certificate controller/);
  });

  it('a cache not synced yet is the failure', async () => {
    const r = await stoppedRun(false);
    assert.ok(r.lines.some((l) => /^E.* Unhandled Error err="unable to sync caches for certificate-csrsigning-x"$/.test(l)), r.lines.join('\n'));
    assert.ok(!r.lines.some((l) => l.includes('Caches are synced')), r.lines.join('\n'));
    assert.equal(r.syncs, 0);
  });
});
