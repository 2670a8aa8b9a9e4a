// The signing controller told to stop (leadership lost, shutdown) while a CSR is being signed: the
// status write of that signature is abandoned, as upstream's UpdateStatus(ctx) on the cancelled
// leader context, so a process that no longer leads writes nothing beside the new leader. A write
// already in flight is abandoned too, quietly: a stop under load is not a burst of failed syncs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { InformerHandlers } from '../../core/controller/informer.js';
import { createHooks } from '../../core/hooks.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { issueCertificate } from '../../core/crypto/index.js';
import { SigningController } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { makeCsr } from './support.js';

const SIGNER = 'example.com/test';

const approvedCsr = (name: string): Csr => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name, resourceVersion: '5' },
  spec: { request: '', signerName: SIGNER, usages: ['client auth'] },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] },
} as unknown as Csr);

type Update = (r: unknown, obj: Csr, sub?: string, o?: { signal?: AbortSignal }) => Promise<unknown>;

/** A signing controller over a one-CSR informer cache; `offer` puts an approved CSR in it and hands it to the controller. */
function signingController(hooks: ReturnType<typeof createHooks>, update: Update, logger: ReturnType<typeof createLogger>) {
  let handlers: InformerHandlers<Csr> = {};
  const cache = new Map<string, Csr>();
  const controller = new SigningController({
    informers: { for: () => ({ addHandlers: (h: InformerHandlers<Csr>) => { handlers = h; }, get: (k: string) => cache.get(k), waitForSync: async () => {} }) },
    client: { update },
    hooks,
    logger,
  } as unknown as ControllerContext);
  const offer = (csr: Csr) => { cache.set(csr.metadata.name!, csr); handlers.add?.(csr); };
  return { controller, offer };
}

describe('csrsigning stopped while signing', () => {
  it('does not write the status of a signature that completes after the stop', async () => {
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
    // As RestClient: a request whose signal has aborted is not sent.
    const { controller, offer } = signingController(hooks, async (_r, obj, _sub, o = {}) => {
      o.signal?.throwIfAborted();
      writes.push(obj.metadata.name ?? '');
      return obj;
    }, createLogger({ write: () => {} }));
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    offer(approvedCsr('csr-1'));
    await signerCalled;
    stop.abort();
    finishSigning();
    await running;
    assert.deepEqual(writes, [], 'a status written after the controller was told to stop');
  });

  it('abandons a status write in flight at the stop quietly: no failed sync is logged', async () => {
    const lines: string[] = [];
    let writing: () => void = () => {};
    const writeStarted = new Promise<void>((r) => { writing = r; });
    const hooks = createHooks();
    // A real request and certificate: the controller checks what the signer answers before writing it.
    const request = makeCsr({ cn: 'csr-2' }).pem;
    const ca = makeCa({ commonName: 'stop-mid-write-ca' });
    hooks.sign.for(SIGNER).tapPromise('Test', async (req) => issueCertificate(req.requestPem, { certificatePem: ca.certificatePem, privateKey: ca.privateKeyPem },
      { usages: req.usages, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000) }));
    // As RestClient with a server that has not answered yet: the request fails when its signal aborts.
    const { controller, offer } = signingController(hooks, (_r, _obj, _sub, o = {}) => new Promise((_, reject) => {
      writing();
      o.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')), { once: true });
    }), createLogger({ verbosity: 0, write: (l) => lines.push(l) }));
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    // As upstream's controller per signer: started, and logged, before any CSR comes.
    assert.ok(lines.some((l) => l.includes('Starting certificate controller name="csrsigning-example.com-test"')), lines.join('\n'));
    const csr = approvedCsr('csr-2');
    csr.spec!.request = Buffer.from(request).toString('base64');
    offer(csr);
    await writeStarted;
    stop.abort();
    await running;
    assert.deepEqual(lines.filter((l) => l.includes('failed')), [], 'a write abandoned by the stop is no failure');
    assert.ok(lines.some((l) => l.includes('Shutting down certificate controller name="csrsigning-example.com-test"')), lines.join('\n'));
  });
});
