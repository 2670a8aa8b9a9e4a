// The cleaner told to stop (leadership lost, shutdown) in the middle of a sweep: it deletes nothing
// more, as upstream's Delete(ctx) calls on the cancelled leader context, instead of working through
// the rest of the cache (thousands of CSRs at --plat-api-qps) beside the new leader, past
// --controller-shutdown-timeout.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { csrCleaner } from '../../plugins/csrcleaner/index.js';

const NOW = new Date('2030-01-01T12:00:00Z');

const deniedLongAgo = (name: string): Csr => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name, creationTimestamp: '2030-01-01T00:00:00Z' },
  spec: { request: '', signerName: 'example.com/test', usages: ['client auth'] },
  status: { conditions: [{ type: 'Denied', status: 'True', reason: 'Test', lastUpdateTime: '2030-01-01T00:00:00Z' }] },
} as unknown as Csr);

describe('csrcleaner stopped mid-sweep', () => {
  it('deletes nothing after the stop', async () => {
    const cached = ['csr-1', 'csr-2', 'csr-3'].map(deniedLongAgo);
    const deleted: string[] = [];
    const stop = new AbortController();
    const cleaner = csrCleaner({
      informers: { for: () => ({ list: () => cached, waitForSync: async () => {} }) },
      client: {
        // As RestClient: a request whose signal has aborted is not sent.
        delete: async (_r: unknown, name: string, _body?: unknown, o: { signal?: AbortSignal } = {}) => {
          o.signal?.throwIfAborted();
          deleted.push(name);
          stop.abort(); // leadership is lost while the first deletion is in flight
          return {};
        },
      },
      logger: createLogger({ write: () => {} }),
    } as unknown as ControllerContext, { intervalMs: 3600_000, now: () => NOW });
    await cleaner.run(stop.signal);
    assert.deepEqual(deleted, ['csr-1']);
  });
});
