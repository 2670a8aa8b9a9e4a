// The signing controller told to stop (leadership lost, shutdown) while a CSR is being signed: the
// status write of that signature is abandoned, as upstream's UpdateStatus(ctx) on the cancelled
// leader context, so a process that no longer leads writes nothing beside the new leader.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { InformerHandlers } from '../../core/controller/informer.js';
import { createHooks } from '../../core/hooks.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { SigningController } from '../../plugins/csrsigning/index.js';

const SIGNER = 'example.com/test';

const approvedCsr = (name: string): Csr => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name, resourceVersion: '5' },
  spec: { request: '', signerName: SIGNER, usages: ['client auth'] },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] },
} as unknown as Csr);

describe('csrsigning stopped while signing', () => {
  it('does not write the status of a signature that completes after the stop', async () => {
    let handlers: InformerHandlers<Csr> = {};
    const cache = new Map<string, Csr>();
    const writes: string[] = [];
    let called: () => void = () => {};
    const signerCalled = new Promise<void>((r) => { called = r; });
    let finishSigning: () => void = () => {};
    const hooks = createHooks();
    hooks.sign.for(SIGNER).tapPromise('Test', async () => {
      called();
      await new Promise<void>((r) => { finishSigning = r; });
      return { certificatePem: 'cert' };
    });
    const controller = new SigningController({
      informers: { for: () => ({ addHandlers: (h: InformerHandlers<Csr>) => { handlers = h; }, get: (k: string) => cache.get(k) }) },
      client: {
        // As RestClient: a request whose signal has aborted is not sent.
        update: async (_r: unknown, obj: Csr, _sub?: string, o: { signal?: AbortSignal } = {}) => {
          o.signal?.throwIfAborted();
          writes.push(obj.metadata.name ?? '');
          return obj;
        },
      },
      hooks,
      logger: createLogger({ write: () => {} }),
    } as unknown as ControllerContext);
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    const csr = approvedCsr('csr-1');
    cache.set('csr-1', csr);
    handlers.add?.(csr);
    await signerCalled;
    stop.abort();
    finishSigning();
    await running;
    assert.deepEqual(writes, [], 'a status written after the controller was told to stop');
  });
});
