// The signing controller against a cache that lags its own status write: the write's watch event
// is still on its way when the CSR is synced again (an event made it dirty during the write), so
// the cache shows the version the write replaced. Signing again then could only lose the write's
// conflict; the controller waits for the cache instead, and handles any other version as usual.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { InformerHandlers } from '../../core/controller/informer.js';
import { createHooks } from '../../core/hooks.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { issueCertificate } from '../../core/crypto/index.js';
import type { SigningRequest } from '../../core/signing.js';
import { SigningController } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { makeCsr } from './support.js';

const SIGNER = 'example.com/test';
const NAME = 'csr-1';
// The controller checks what a signer answers (a certificate for the CSR's key): real ones.
const REQUEST = makeCsr({ cn: NAME }).pem;
const CA = makeCa({ commonName: 'stale-cache-ca' });

function csrAt(resourceVersion: string, o: { certificate?: string } = {}): Csr {
  return {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
    metadata: { name: NAME, resourceVersion },
    spec: { request: Buffer.from(REQUEST).toString('base64'), signerName: SIGNER, usages: ['client auth'] },
    status: {
      conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }],
      ...(o.certificate ? { certificate: o.certificate } : {}),
    },
  } as unknown as Csr;
}

/** A controller over a hand-fed cache; its writes and signings are recorded. */
function harness() {
  const cache = new Map<string, Csr>();
  let handlers: InformerHandlers<Csr> = {};
  const writes: { resourceVersion: string | undefined; certificate: string | undefined }[] = [];
  const signed: string[] = [];
  const hooks = createHooks();
  hooks.sign.for(SIGNER).tapPromise('Test', async (req: SigningRequest) => {
    signed.push(req.csr.metadata.resourceVersion ?? '');
    const now = Date.now();
    return issueCertificate(req.requestPem, { certificatePem: CA.certificatePem, privateKey: CA.privateKeyPem },
      { usages: req.usages, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000) });
  });
  const ctx = {
    informers: { for: () => ({ addHandlers: (h: InformerHandlers<Csr>) => { handlers = h; }, get: (k: string) => cache.get(k), waitForSync: async () => {} }) },
    client: {
      update: async (_r: unknown, obj: Csr) => {
        writes.push({ resourceVersion: obj.metadata.resourceVersion, certificate: obj.status?.certificate });
        return obj;
      },
    },
    hooks,
    logger: createLogger({ write: () => {} }),
  } as unknown as ControllerContext;
  const controller = new SigningController(ctx);
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  /** The cache moves to `csr` and the informer reports it. */
  const observe = (csr: Csr) => {
    const old = cache.get(NAME);
    cache.set(NAME, csr);
    if (old) handlers.update?.(old, csr); else handlers.add?.(csr);
  };
  /** The informer reports the cached CSR again, unchanged (as a re-queued key is synced again). */
  const again = () => handlers.update?.(cache.get(NAME)!, cache.get(NAME)!);
  const settle = async () => { for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r)); };
  return { observe, again, settle, writes, signed, stop: async () => { stop.abort(); await running; } };
}

describe('csrsigning with a cache behind its own status write', () => {
  it('does not sign again from the version its write replaced, and signs any other version', async () => {
    const h = harness();
    try {
      h.observe(csrAt('5'));
      await h.settle();
      assert.deepEqual(h.signed, ['5']);
      assert.equal(h.writes.length, 1);

      // The write's event has not arrived: the cache still shows version 5.
      h.again();
      await h.settle();
      assert.deepEqual(h.signed, ['5'], 'signed again from the version its own write replaced');
      assert.equal(h.writes.length, 1);

      // The event arrives: the certificate is there, nothing to do.
      h.observe(csrAt('6', { certificate: 'Y2VydA==' }));
      await h.settle();
      assert.equal(h.writes.length, 1);

      // Any other version without a certificate is signed as usual (the guard held only version 5).
      h.observe(csrAt('7'));
      await h.settle();
      assert.deepEqual(h.signed, ['5', '7']);
      assert.equal(h.writes.length, 2);
    } finally {
      await h.stop();
    }
  });
});
