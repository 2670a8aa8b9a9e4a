// A tap made with `tap` whose function returns a Promise (an async function): on an async hook it
// is waited for as a tapPromise tap is, so an admission plugin's refusal refuses (it was lost,
// the object stored, and the unhandled rejection ended the process) and an authorizer's answer
// decides; on a sync hook (configure) it stops start-up naming the hook, instead of its work
// coming late and its rejection ending the process unnamed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrObject, CSR_PATH, csrPath } from '../admission/support.js';

const NAME = 'AsyncFunctionTaps';

const asyncTaps: Plugin = {
  name: NAME,
  apply(host) {
    host.hooks.admitValidate.tap(NAME, async (req) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (req.resource === 'certificatesigningrequests' && req.name.startsWith('refused-')) throw new Error('refused after an await');
    });
    host.hooks.admitMutate.tap(NAME, async (req) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (req.resource === 'certificatesigningrequests' && req.name === 'labelled') {
        const meta = (req.object as { metadata: { labels?: Record<string, string> } }).metadata;
        meta.labels = { ...meta.labels, mutated: 'after-an-await' };
      }
    });
  },
};

describe('a sync tap whose function returns a Promise, on an async hook', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startInProcess({ plugins: [asyncTaps] }); });
  after(async () => { await plat?.stop(); });

  it('refuses when the Promise rejects, stores nothing, and the server goes on', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('refused-1', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform "refused-1" is forbidden: refused after an await');
    assert.equal((await plat.admin.get(csrPath('refused-1'))).status, 404);
    const ok = await plat.admin.post(CSR_PATH, csrObject('admitted', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(ok.status, 201, ok.text);
  });

  it('stores what a mutating tap changed after an await', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('labelled', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.metadata.labels?.mutated, 'after-an-await');
  });
});

describe('a sync tap that returns a Promise, on a sync hook', () => {
  it('stops start-up naming the hook', async () => {
    const late: Plugin = { name: 'AsyncConfigure', apply(host) { host.hooks.configure.tap('AsyncConfigure', async () => { throw new Error('too late'); }); } };
    await assert.rejects(startInProcess({ plugins: [late] }), (e: Error) => {
      assert.match(e.message, /hooks\.configure is synchronous: the tap returned a Promise, which nothing waits for/);
      return true;
    });
  });
});

describe('aroundTap on a callback tap whose callback runs the rest of the chain, which throws', () => {
  it('passes the throw on and calls back once: neither the tap nor the chain is failed twice', async () => {
    const { aroundTap } = await import('../../core/promise-taps.js');
    const outcomes: string[] = [];
    const fn = aroundTap('async', (...args: unknown[]) => (args.pop() as (err?: unknown) => void)(), {
      settled: () => outcomes.push('settled'),
      failed: (e) => { outcomes.push(`failed: ${(e as Error).message}`); return e; },
    });
    let callbacks = 0;
    assert.throws(() => fn('req', () => { callbacks += 1; throw new Error('thrown by the next tap'); }), /thrown by the next tap/);
    assert.equal(callbacks, 1);
    assert.deepEqual(outcomes, ['settled']);
  });
});
