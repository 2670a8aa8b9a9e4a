// A validating admission plugin runs after validation, so whatever it changes would be stored
// unvalidated: it sees a copy of the object. Changes made in admitValidate (a spec field the
// validation would refuse, a label) never reach storage; changes in admitMutate do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrObject, csrPath, CSR_PATH } from './support.js';

const PLUGIN_NAME = 'MeddlingAdmission';
const SIGNER = 'example.com/my-signer';

const meddling: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    host.hooks.admitMutate.tapPromise(PLUGIN_NAME, async (req) => {
      if (req.resource !== 'certificatesigningrequests' || !req.object) return;
      req.object.metadata.labels = { ...req.object.metadata.labels, mutated: 'yes' };
    });
    host.hooks.admitValidate.tapPromise(PLUGIN_NAME, async (req) => {
      if (req.resource !== 'certificatesigningrequests' || !req.object) return;
      (req.object.spec as { usages: string[] }).usages = ['bogus usage'];
      req.object.metadata.labels = { ...req.object.metadata.labels, validated: 'yes' };
    });
  },
};

describe('a validating admission plugin that changes the object', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startInProcess({ plugins: [meddling] }); });
  after(async () => { await plat?.stop(); });

  it('changes nothing that is stored on create', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('meddled', SIGNER, fx.ecCsrPem));
    assert.equal(r.status, 201, r.text);
    for (const obj of [r.json, (await plat.admin.get(csrPath('meddled'))).json]) {
      assert.deepEqual(obj.spec.usages, ['digital signature', 'client auth']);
      assert.deepEqual(obj.metadata.labels, { mutated: 'yes' });
    }
  });

  it('changes nothing that is stored on update', async () => {
    const current = (await plat.admin.get(csrPath('meddled'))).json;
    const r = await plat.admin.put(csrPath('meddled'), { ...current, metadata: { ...current.metadata, labels: { mutated: 'yes', updated: 'yes' } } });
    assert.equal(r.status, 200, r.text);
    const stored = (await plat.admin.get(csrPath('meddled'))).json;
    assert.deepEqual(stored.spec.usages, ['digital signature', 'client auth']);
    assert.deepEqual(stored.metadata.labels, { mutated: 'yes', updated: 'yes' });
  });

  it('changes nothing a dry run answers', async () => {
    const created = await plat.admin.post(`${CSR_PATH}?dryRun=All`, csrObject('meddled-dry', SIGNER, fx.ecCsrPem));
    assert.equal(created.status, 201, created.text);
    const current = (await plat.admin.get(csrPath('meddled'))).json;
    const updated = await plat.admin.put(`${csrPath('meddled')}?dryRun=All`, { ...current, metadata: { ...current.metadata, labels: { mutated: 'yes', dry: 'yes' } } });
    assert.equal(updated.status, 200, updated.text);
    for (const [obj, labels] of [[created.json, { mutated: 'yes' }], [updated.json, { mutated: 'yes', dry: 'yes' }]] as const) {
      assert.deepEqual(obj.spec.usages, ['digital signature', 'client auth']);
      assert.deepEqual(obj.metadata.labels, labels);
    }
  });
});
