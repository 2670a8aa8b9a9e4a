// The registered csrcleaner against a real plat: with the clock two hours ahead, its first sweep
// (at start) deletes a denied CSR and keeps a pending and an approved-but-unissued one; with a
// short interval, later sweeps find CSRs that became old after the first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import type { Runnable } from '../../core/lifecycle.js';
import { csrCleanerController } from '../../plugins/csrcleaner/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { runController } from '../csrapproving/harness.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const HOUR = 3600_000;

describe('csrcleaner', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startInProcess({ args: ['--controllers='] }); }); // this test runs its own controllers
  after(async () => { await plat?.stop(); });

  const create = async (name: string) => {
    const r = await plat.admin.post(CSRS, baseCsr(fx, name));
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const decide = async (name: string, type: string, lastUpdateTime?: string) => {
    const csr = (await plat.admin.get(`${CSRS}/${name}`)).json;
    csr.status = { conditions: [{ type, status: 'True', reason: 'Test', message: 'by the test', ...(lastUpdateTime ? { lastUpdateTime } : {}) }] };
    const r = await plat.admin.put(`${CSRS}/${name}/approval`, csr);
    assert.equal(r.status, 200, r.text);
  };
  const exists = async (name: string) => (await plat.admin.get(`${CSRS}/${name}`)).status === 200;
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  };

  it('sweeps at start on the injected clock: deletes the old denied CSR, keeps the fresh pending one, logs why', async () => {
    await create('old-denied');
    await decide('old-denied', 'Denied');
    await create('fresh-pending');
    await create('approved-unissued');
    await decide('approved-unissued', 'Approved');
    const h = runController<Runnable & { sweep(): Promise<void> }>(plat, csrCleanerController({ now: () => new Date(Date.now() + 2 * HOUR) }), 'certificatesigningrequest-cleaner-controller');
    try {
      await until(async () => !(await exists('old-denied')), 'the denied CSR deleted by the first sweep');
      assert.ok(h.logged('Cleaning CSR as it is more than deniedExpiration duration old and denied.', 'csr="old-denied"', 'deniedExpiration="1h0m0s"'), h.lines.join('\n'));
      // A sweep works from the informer's cache: one before the deletion's event arrives would
      // rightly try old-denied again (seen once under load).
      await until(async () => !h.informers.for<Csr>(CSR_RESOURCE).list().some((c) => c.metadata.name === 'old-denied'), 'the cache to see the deletion');
      await h.runnable.sweep();
      assert.ok(await exists('fresh-pending'), 'a 2h-old pending CSR is kept (24h deadline)');
      assert.ok(await exists('approved-unissued'), 'an approved CSR without a certificate is never cleaned');
      assert.equal(h.lines.filter((l) => l.includes('Cleaning CSR')).length, 1);
      assert.ok(h.logged('Starting CSR cleaner controller'), h.lines.join('\n'));
    } finally {
      await h.stop();
    }
  });

  it('sweeps again every interval', async () => {
    const old = new Date(Date.now() - 2 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await create('first-old');
    await decide('first-old', 'Denied', old);
    const h = runController(plat, csrCleanerController({ intervalMs: 50 }), 'certificatesigningrequest-cleaner-controller');
    try {
      await eventually(() => h.logged('Cleaning CSR', 'csr="first-old"'), 'the first sweep');
      await create('later-old');
      await decide('later-old', 'Denied', old);
      await eventually(() => h.logged('Cleaning CSR', 'csr="later-old"'), 'a later sweep');
      await until(async () => !(await exists('first-old')) && !(await exists('later-old')), 'both deleted');
      assert.ok(await exists('fresh-pending'));
    } finally {
      await h.stop();
    }
  });
});
