// The service account controller against a real plat (the profile's controllers off, this one run
// on its own): every Active namespace gets a `default` ServiceAccount, one deleted is made again,
// a namespace being deleted gets none, and a create the server refuses is logged in upstream's
// words and retried until it succeeds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errors } from '../../core/api/errors.js';
import type { Plugin } from '../../core/plugin-api.js';
import { ServiceAccountController } from '../../plugins/serviceaccount-controller/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const NS = '/api/v1/namespaces';

/** Refuses ServiceAccounts in namespace `refused` while `refusing` is set. */
let refusing = true;
const REFUSING: Plugin = {
  name: 'RefusingServiceAccountsForTest',
  apply(host) {
    host.hooks.admitValidate.tap('RefusingServiceAccountsForTest', (req) => {
      if (refusing && req.resource === 'serviceaccounts' && req.namespace === 'refused') {
        throw errors.forbidden({ group: '', resource: 'serviceaccounts' }, req.name, 'not yet');
      }
    });
  },
};

describe('service account controller', () => {
  let plat: RunningPlat;
  let h: Harness<any>;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='], plugins: [REFUSING] });
    h = runController(plat, ServiceAccountController, 'serviceaccount-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const names = async (ns: string) => {
    const r = await plat.admin.get(`${NS}/${ns}/serviceaccounts`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((i: any) => i.metadata.name).sort();
  };
  const hasDefault = (ns: string) => async () => (await plat.admin.get(`${NS}/${ns}/serviceaccounts/default`)).status === 200;
  const syncs = (ns: string) => h.lines.filter((l: string) => l.includes('Finished syncing namespace') && l.includes(`namespace="${ns}"`)).length;

  it('gives the namespaces there at start and each new one a default ServiceAccount, and makes it again when deleted', async () => {
    for (const ns of ['default', 'plat-system', 'plat-node-lease']) await until(hasDefault(ns), `default in ${ns}`);
    assert.equal((await plat.admin.post(NS, { metadata: { name: 'team' } })).status, 201);
    await until(hasDefault('team'), 'default in team');
    const made = (await plat.admin.get(`${NS}/team/serviceaccounts/default`)).json;
    assert.deepEqual(Object.keys(made.metadata).filter((k) => !['uid', 'resourceVersion', 'creationTimestamp', 'managedFields'].includes(k)), ['name', 'namespace']);
    assert.ok(h.logged('Created service account', 'namespace="team"', 'serviceAccount="default"'));

    // An account of the user's own is left as it is; only `default` is ensured.
    assert.equal((await plat.admin.post(`${NS}/team/serviceaccounts`, { metadata: { name: 'bot' } })).status, 201);
    assert.equal((await plat.admin.delete(`${NS}/team/serviceaccounts/default`)).status, 200);
    await until(async () => (await plat.admin.get(`${NS}/team/serviceaccounts/default`)).json?.metadata?.uid !== made.metadata.uid
      && (await hasDefault('team')()), 'default made again in team');
    assert.deepEqual(await names('team'), ['bot', 'default']);
    assert.equal((await plat.admin.delete(`${NS}/team/serviceaccounts/bot`)).status, 200);
  });

  it('makes nothing in a namespace being deleted', async () => {
    assert.equal((await plat.admin.post(NS, { metadata: { name: 'leaving' } })).status, 201);
    await until(hasDefault('leaving'), 'default in leaving');
    // No namespace controller runs here: the namespace stays Terminating with its content.
    const marked = syncs('leaving');
    const d = await plat.admin.delete(`${NS}/leaving`);
    assert.equal(d.json.status.phase, 'Terminating');
    await until(async () => syncs('leaving') > marked, 'the sync of the namespace\'s update');
    const before = syncs('leaving');
    assert.equal((await plat.admin.delete(`${NS}/leaving/serviceaccounts/default`)).status, 200);
    await until(async () => syncs('leaving') > before, 'the sync after the deletion');
    assert.deepEqual(await names('leaving'), []);
    assert.ok(!h.logged('Unhandled Error', 'leaving'), 'a terminating namespace is no failure to retry');
  });

  it('logs a refused create in upstream\'s words and retries it until it goes through', async () => {
    assert.equal((await plat.admin.post(NS, { metadata: { name: 'refused' } })).status, 201);
    await until(async () => h.logged('Unhandled Error', 'refused failed with : serviceaccounts \\"default\\" is forbidden: not yet'), 'the failure logged');
    assert.deepEqual(await names('refused'), []);
    refusing = false;
    // The rate limiter's backoff doubles from 5 ms: a few failures in, the next try is well within the wait.
    await until(hasDefault('refused'), 'default in refused after the refusals stop');
  });
});
