// A signer plugin that never answers: each call is abandoned after the controller's limit (its
// request's signal aborted, the CSR retried with backoff and the reason logged), other signers go
// on, and stopping the controller does not wait for the calls still hanging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import type { SigningRequest } from '../../core/signing.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { getCsr, makeCsr, startSigning, submitApproved, until, type RunningSigning } from './support.js';

const PLUGIN_NAME = 'HangingSigner';

/** Never answers for example.com/hangs; records the requests (and so their signals). */
function hangingSigner(seen: SigningRequest[]): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host) {
      host.hooks.sign.for('example.com/hangs').tapPromise(PLUGIN_NAME, (req) => { seen.push(req); return new Promise(() => {}); });
    },
  };
}

describe('csrsigning with a signer that never answers', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  const seen: SigningRequest[] = [];

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    signing = await startSigning(plat, [], { plugins: [hangingSigner(seen)], signing: { signTimeoutMs: 300 } });
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('abandons the call after the limit, aborts its signal, logs why and retries', async () => {
    await submitApproved(plat.admin, 'hangs', makeCsr({ cn: 'hangs' }), 'example.com/hangs', ['client auth']);
    await until(() => signing.logs.count('error auto signing csr: the signer did not answer within 300ms (waiting on plugin \\"HangingSigner\\")') >= 2, 'two abandoned calls');
    assert.ok(seen.length >= 2);
    assert.equal(seen[0]!.signal.aborted, true);
    const obj = await getCsr(plat.admin, 'hangs');
    assert.equal(obj.status.certificate, undefined);
    assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved']);
  });
});

describe('stopping csrsigning while a signer hangs', () => {
  it('returns at once, aborting the signal of the call it stops waiting for', async () => {
    const plat = await startInProcess({ args: ['--controllers='] });
    const seen: SigningRequest[] = [];
    const signing = await startSigning(plat, [], { plugins: [hangingSigner(seen)] }); // the default limit, a minute
    try {
      await submitApproved(plat.admin, 'hangs-at-stop', makeCsr({ cn: 'hangs-at-stop' }), 'example.com/hangs', ['client auth']);
      await until(() => seen.length === 1, 'the call');
      const t0 = Date.now();
      await signing.stop();
      assert.ok(Date.now() - t0 < 5_000, `stop took ${Date.now() - t0} ms`);
      assert.equal(seen[0]!.signal.aborted, true);
      assert.equal(signing.logs.count('error auto signing csr'), 0, 'stopping is not a signing error');
    } finally {
      await plat.stop();
    }
  });
});
