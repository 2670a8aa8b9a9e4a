// A controller's request that got no answer, in the words of client-go's url.Error, as upstream's
// lines built on the error read: the cleaner's `unable to delete CSR "<name>": Delete "<url>": dial
// tcp ...` and the certificate controllers' `Sync <key> failed with : Post "<url>": dial tcp ...`
// (a SubjectAccessReview the approver could not create), not Node's `connect ECONNREFUSED ...`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr } from '../../core/certificates/csr-object.js';
import { RestClient } from '../../core/client/rest-client.js';
import { ItemExponentialFailureRateLimiter } from '../../core/controller/rate-limiters.js';
import { runWorkers } from '../../core/controller/workers.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { csrCleaner } from '../../plugins/csrcleaner/index.js';
import { connectError, freePort } from '../helpers/plat.js';

const NOW = new Date('2030-01-01T12:00:00Z');

const deniedLongAgo = (name: string): Csr => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name, creationTimestamp: '2030-01-01T00:00:00Z' },
  spec: { request: '', signerName: 'example.com/test', usages: ['client auth'] },
  status: { conditions: [{ type: 'Denied', status: 'True', reason: 'Test', lastUpdateTime: '2030-01-01T00:00:00Z' }] },
} as unknown as Csr);

/** A REST client for a port nothing listens on. */
async function refusedClient(): Promise<{ client: RestClient; port: number }> {
  const port = await freePort();
  assert.equal(await connectError(port), 'ECONNREFUSED');
  return { client: new RestClient({ server: new URL(`http://127.0.0.1:${port}`) }), port };
}

describe('controllers\' client errors in Go\'s words', () => {
  it('the cleaner\'s failed delete names the request as url.Error', async () => {
    const { client, port } = await refusedClient();
    const lines: string[] = [];
    const cleaner = csrCleaner({
      informers: { for: () => ({ list: () => [deniedLongAgo('csr-1')], waitForSync: async () => {} }) },
      client, logger: createLogger({ write: (l) => lines.push(l) }),
    } as unknown as ControllerContext, { intervalMs: 3600_000, now: () => NOW });
    try {
      await cleaner.sweep();
    } finally {
      client.close();
    }
    const url = `http://127.0.0.1:${port}/apis/certificates.platform/v1/certificatesigningrequests/csr-1`;
    const failed = lines.find((l) => l.includes('Error while attempting to clean CSR'));
    assert.ok(failed?.includes(`unable to delete CSR \\"csr-1\\": Delete \\"${url}\\": dial tcp 127.0.0.1:${port}: connect: connection refused`), lines.join('\n'));
  });

  it('a sync that failed on a request logs `failed with :` and the url.Error', async () => {
    const { client, port } = await refusedClient();
    const lines: string[] = [];
    const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(3600_000, 3600_000));
    queue.add('csr-1');
    const stop = new AbortController();
    // Stopped once the failure is logged (a stop before would make it an abandoned sync).
    const write = (l: string) => { lines.push(l); if (l.includes('failed with')) stop.abort(); };
    const guard = setTimeout(() => stop.abort(), 10_000);
    try {
      await runWorkers({
        name: 'csrapproving', queue, workers: 1, logger: createLogger({ write }),
        async sync() {
          await client.create({ group: 'authorization.platform', version: 'v1', plural: 'subjectaccessreviews' }, { apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview', metadata: {} });
        },
      }, stop.signal);
    } finally {
      clearTimeout(guard);
      client.close();
    }
    const url = `http://127.0.0.1:${port}/apis/authorization.platform/v1/subjectaccessreviews`;
    const failed = lines.find((l) => l.includes('Unhandled Error'));
    assert.ok(failed?.includes(`Sync csr-1 failed with : Post \\"${url}\\": dial tcp 127.0.0.1:${port}: connect: connection refused`), lines.join('\n'));
  });
});
