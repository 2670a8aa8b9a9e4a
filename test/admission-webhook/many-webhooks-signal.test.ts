// Validating webhooks are called in parallel, each call listening on the request's context (its
// AbortSignal) to end when the client goes away. A dozen webhooks on one request is a normal
// configuration, not a leak: Node must not warn "Possible EventTarget memory leak detected".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { allow, CSRS, webhook, WebhookServer, withConfiguration } from './support.js';

describe('a request checked by many validating webhooks at once', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const warnings: Error[] = [];
  const onWarning = (w: Error) => { warnings.push(w); };
  before(async () => { await server.start(); plat = await startInProcess({}); process.on('warning', onWarning); });
  after(async () => { process.off('warning', onWarning); await plat?.stop(); await server.stop(); });

  it('is answered without a MaxListenersExceededWarning on its context', async () => {
    server.on('/allow', (review) => allow(review));
    const hooks = Array.from({ length: 12 }, (_, i) => webhook(server, `allow-${i}.example.com`, '/allow'));
    await withConfiguration(plat.admin, 'ValidatingWebhookConfiguration', 'many', hooks, async () => {
      const created = await plat.admin.post(CSRS, baseCsr(fixtures(), 'many-hooks'));
      assert.equal(created.status, 201, created.text);
      assert.equal(server.reviewsFor('/allow').length, 12);
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
  });
});
