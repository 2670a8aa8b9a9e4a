// An issued serving certificate that expires while its successor waits for approval is not served
// any longer: the secure port goes back to the self-signed pair it serves before the first issued
// certificate (upstream's GetCertificate answers Current(), nil once expired). The clock is
// injected; the CSR is never approved.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { whenAborted } from '../../../core/abort-wait.js';
import { FileStore, keyToPem } from '../../../core/client/certificate/store.js';
import type { RestClient } from '../../../core/client/rest-client.js';
import { createCertificate } from '../../../core/crypto/index.js';
import { createLogger } from '../../../core/log.js';
import type { NodeAddress, NodeAgentContext, TlsPair } from '../../../core/nodeagent/context.js';
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

describe('node agent serving certificate expiry', () => {
  it('serves the self-signed pair again once the issued certificate expires unreplaced', { timeout: 30_000 }, async () => {
    const certDir = tempDir('plat-serving-expiry-');
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const issued = createCertificate({
      template: { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, notBefore: new Date(T0), notAfter: new Date(T0 + HOUR) },
      publicKey: key, signer: key,
    }).certificatePem;
    new FileStore({ dir: certDir, prefix: 'nodeagent-server' }).update(issued, keyToPem(key));

    const api = new Slot<RestClient>();
    api.set(pendingForever);
    const addresses = new Slot<readonly NodeAddress[]>();
    addresses.set([{ type: 'InternalIP', address: '10.0.0.1' }]);
    const ctx = {
      config: { enableServer: true, serverTLSBootstrap: true, tlsCertFile: '', tlsPrivateKeyFile: '' },
      flags: { get: (name: string) => (name === 'cert-dir' ? certDir : undefined) },
      logger: createLogger({ write: () => {} }),
      nodeName: 'n1', hostname: 'n1', standalone: false,
      api, addresses, servingPair: new Slot<TlsPair>(),
    } as unknown as NodeAgentContext;

    // Past the rotation deadline: the new CSR is pending when the certificate expires.
    let now = T0 + 0.95 * HOUR;
    const stop = new AbortController();
    const running = runServingIdentity(ctx, { now: () => new Date(now), templateCheckMs: 5 }, stop.signal);
    try {
      assert.equal((await ctx.servingPair.wait()).cert, issued, 'the unexpired issued certificate serves');
      const changed = new Promise<TlsPair>((resolve) => ctx.servingPair.onChange(resolve));
      now = T0 + HOUR + 1;
      // Bounded generously: generating the self-signed pair on a loaded 2-core machine took over 1 s.
      let timer: NodeJS.Timeout | undefined;
      const next = await Promise.race([changed, new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), 20_000); })]);
      clearTimeout(timer);
      assert.ok(next, 'the expired certificate is still served');
      assert.equal(next.cert, readFileSync(path.join(certDir, 'nodeagent.crt'), 'utf8'));
    } finally {
      stop.abort();
      await running;
    }
  });
});
