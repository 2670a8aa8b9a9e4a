// serverTLSBootstrap's serving certificate and nothing else, as upstream's GetCertificate answers
// the certificate manager's Current(): while no certificate is issued, and once the issued one has
// expired unreplaced, the slot holds null (the secure port fails every handshake) and no
// self-signed pair is written into --cert-dir. Standalone, a stored certificate serves until it
// expires and none is asked for. The clock is injected; the CSR is never approved.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { whenAborted } from '../../../core/abort-wait.js';
import { FileStore, keyToPem } from '../../../core/client/certificate/store.js';
import type { RestClient } from '../../../core/client/rest-client.js';
import { createCertificate } from '../../../core/crypto/index.js';
import { createLogger } from '../../../core/log.js';
import type { NodeAddress, NodeAgentContext, TlsPair } from '../../../core/nodeagent/context.js';
import { MetricsRegistry } from '../../../core/metrics/registry.js';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';
import { Slot } from '../../../core/nodeagent/slot.js';
import { runServingIdentity } from '../../../plugins/nodeagent-identity/serving-identity.js';
import { tempDir } from '../../helpers/plat.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** An API server that takes every CSR and never issues one. */
const pendingForever = {
  request: async (method: string) => method === 'POST'
    ? { metadata: { name: 'csr-1', uid: 'uid-1', resourceVersion: '1' }, status: {} }
    : { items: [{ metadata: { name: 'csr-1', uid: 'uid-1', resourceVersion: '1' }, status: {} }], metadata: { resourceVersion: '1' } },
  async *watch(_r: unknown, o: { signal: AbortSignal }) { await whenAborted(o.signal); },
} as unknown as RestClient;

function issuedPair(certDir: string): string {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const issued = createCertificate({
    template: { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, notBefore: new Date(T0), notAfter: new Date(T0 + HOUR) },
    publicKey: key, signer: key,
  }).certificatePem;
  new FileStore({ dir: certDir, prefix: 'nodeagent-server' }).update(issued, keyToPem(key));
  return issued;
}

function servingContext(certDir: string, standalone = false): NodeAgentContext {
  const api = new Slot<RestClient>();
  if (!standalone) api.set(pendingForever);
  const addresses = new Slot<readonly NodeAddress[]>();
  addresses.set([{ type: 'InternalIP', address: '10.0.0.1' }]);
  return {
    config: { enableServer: true, serverTLSBootstrap: true, tlsCertFile: '', tlsPrivateKeyFile: '' },
    gates: FeatureGates.evaluate({}).gates,
    flags: { get: (name: string) => (name === 'cert-dir' ? certDir : undefined) },
    logger: createLogger({ write: () => {} }),
    nodeName: 'n1', hostname: 'n1', standalone,
    api, addresses, servingPair: new Slot<TlsPair | null>(), metrics: new MetricsRegistry('1.35'),
  } as unknown as NodeAgentContext;
}

/** The slot's next value; bounded generously (a loaded 2-core machine). */
async function nextValue(slot: Slot<TlsPair | null>): Promise<TlsPair | null | 'none'> {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Promise<TlsPair | null>((resolve) => slot.onChange(resolve));
  const next = await Promise.race([changed, new Promise<'none'>((r) => { timer = setTimeout(() => r('none'), 20_000); })]);
  clearTimeout(timer);
  return next;
}

const selfSignedWritten = (certDir: string) => existsSync(path.join(certDir, 'nodeagent.crt')) || existsSync(path.join(certDir, 'nodeagent.key'));

describe('node agent serving certificate with serverTLSBootstrap', () => {
  it('no certificate while the CSR is pending: the slot holds null and no self-signed pair is written', { timeout: 30_000 }, async () => {
    const certDir = tempDir('plat-serving-pending-');
    const ctx = servingContext(certDir);
    const stop = new AbortController();
    const running = runServingIdentity(ctx, { now: () => new Date(T0), templateCheckMs: 5 }, stop.signal);
    try {
      assert.equal(await ctx.servingPair.wait(), null);
      assert.equal(selfSignedWritten(certDir), false, 'nodeagent.crt / nodeagent.key written');
    } finally {
      stop.abort();
      await running;
    }
    assert.equal(selfSignedWritten(certDir), false);
  });

  it('an issued certificate that expires unreplaced gives way to no certificate, not to a self-signed pair', { timeout: 30_000 }, async () => {
    const certDir = tempDir('plat-serving-expiry-');
    const issued = issuedPair(certDir);
    const ctx = servingContext(certDir);
    // Past the rotation deadline: the new CSR is pending when the certificate expires.
    let now = T0 + 0.95 * HOUR;
    const stop = new AbortController();
    const running = runServingIdentity(ctx, { now: () => new Date(now), templateCheckMs: 5 }, stop.signal);
    try {
      assert.equal((await ctx.servingPair.wait())?.cert, issued, 'the unexpired issued certificate serves');
      const next = nextValue(ctx.servingPair);
      now = T0 + HOUR + 1;
      assert.equal(await next, null, 'the expired certificate is still served');
      assert.equal(selfSignedWritten(certDir), false, 'nodeagent.crt / nodeagent.key written');
    } finally {
      stop.abort();
      await running;
    }
  });

  it('standalone: a stored certificate serves until it expires, then none; without one, none', { timeout: 30_000 }, async () => {
    const empty = tempDir('plat-serving-standalone-');
    const bare = servingContext(empty, true);
    await runServingIdentity(bare, { now: () => new Date(T0) }, new AbortController().signal);
    assert.equal(bare.servingPair.get(), null);
    assert.equal(selfSignedWritten(empty), false);

    const certDir = tempDir('plat-serving-standalone-');
    const issued = issuedPair(certDir);
    const ctx = servingContext(certDir, true);
    // 3 s before NotAfter, so that a loaded machine still reads the stored certificate unexpired:
    // it serves, then expires.
    const start = Date.now();
    const stop = new AbortController();
    const running = runServingIdentity(ctx, { now: () => new Date(T0 + HOUR - 3000 + (Date.now() - start)) }, stop.signal);
    try {
      assert.equal((await ctx.servingPair.wait())?.cert, issued);
      assert.equal(await nextValue(ctx.servingPair), null);
      await running;
    } finally {
      stop.abort();
      await running;
    }
    assert.equal(selfSignedWritten(certDir), false);
  });
});
