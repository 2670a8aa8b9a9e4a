// The legacy token cleaner against a real plat, on a clock of the test's: an auto-generated token
// (its account lists its Secret) unused for longer than the clean-up period is labelled invalid
// since "today", and deleted once it has been invalid for longer than the period; a manual token, a
// recently used one and a recently made one are left alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { legacyTokenCleanerController } from '../../plugins/legacy-token-cleaner/index.js';
import { SECRETS } from '../../plugins/legacy-token-cleaner/controller.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const NS = '/api/v1/namespaces/default';
const DAY = 86_400_000;
const PERIOD = 30 * DAY;
const date = (t: number) => new Date(t).toISOString().slice(0, 10);

describe('legacy service account token cleaner', () => {
  let plat: RunningPlat;
  let h: Harness<any>;
  let clock = Date.now();
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    h = runController(plat, legacyTokenCleanerController({ now: () => new Date(clock), cleanUpPeriodMs: PERIOD }), 'legacy-serviceaccount-token-cleaner-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const secret = (name: string, labels: Record<string, string> = {}) => plat.admin.post(`${NS}/secrets`, {
    metadata: { name, labels, annotations: { 'platform/service-account.name': 'robot' } }, type: 'platform/service-account-token',
  });
  const cached = (name: string) => h.informers.for<any>(SECRETS).get(`default/${name}`);
  const labels = async (name: string) => (await plat.admin.get(`${NS}/secrets/${name}`)).json.metadata?.labels ?? {};

  it('marks an unused auto-generated token invalid after the period, and deletes it a period later', async () => {
    const stop = new AbortController();
    assert.equal((await plat.admin.post(`${NS}/serviceaccounts`, { metadata: { name: 'robot' }, secrets: [{ name: 'auto' }, { name: 'auto-used' }] })).status, 201);
    const later = Date.now() + 40 * DAY;
    assert.equal((await secret('auto')).status, 201);
    assert.equal((await secret('auto-used', { 'platform/legacy-token-last-used': date(later) })).status, 201);
    assert.equal((await secret('manual')).status, 201);
    await until(async () => cached('auto') && cached('auto-used') && cached('manual') && h.informers.for<any>({ group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' }).get('default/robot'), 'the cache');

    // Made just now: within the period, nothing happens.
    await h.runnable.evaluate(stop.signal);
    assert.deepEqual(await labels('auto'), {});

    clock = later;
    await h.runnable.evaluate(stop.signal);
    assert.equal((await labels('auto'))['platform/legacy-token-invalid-since'], date(later));
    assert.equal((await labels('auto-used'))['platform/legacy-token-invalid-since'], undefined, 'used within the period');
    assert.equal((await labels('manual'))['platform/legacy-token-invalid-since'], undefined, 'not listed by its account');
    assert.ok(h.logged('Mark the auto-generated service account token as invalid', `invalidSince="${date(later)}"`, 'secret="default/auto"'));

    await until(async () => cached('auto')?.metadata.labels?.['platform/legacy-token-invalid-since'], 'the label in the cache');
    clock = later + 20 * DAY;
    await h.runnable.evaluate(stop.signal);
    assert.equal((await plat.admin.get(`${NS}/secrets/auto`)).status, 200, 'invalid for less than the period');
    clock = later + 31 * DAY;
    await h.runnable.evaluate(stop.signal);
    assert.equal((await plat.admin.get(`${NS}/secrets/auto`)).status, 404);
    assert.ok(h.logged('Deleting legacy service account token that has been invalid for a long time', 'secret="default/auto"'));
    assert.equal((await plat.admin.get(`${NS}/secrets/manual`)).status, 200);
  });

  it('refuses a clean-up period that is not positive, as upstream', () => {
    assert.throws(() => runController(plat, legacyTokenCleanerController({ cleanUpPeriodMs: 0 }), 'legacy-serviceaccount-token-cleaner-controller'),
      { message: 'failed to start the legacy service account token cleaner: invalid CleanUpPeriod: 0ms' });
  });
});
