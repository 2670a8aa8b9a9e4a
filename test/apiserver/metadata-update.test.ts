// ObjectMeta on update over HTTPS, as rest.BeforeUpdate and ValidateObjectMetaAccessorUpdate: the
// deletion fields are kept from an object being deleted, and refused (422, field is immutable)
// when a client sets them on a live one, where they were dropped before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('metadata deletion fields on update', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const secret = async (name: string, finalizers?: string[]): Promise<any> => {
    const c = await plat.admin.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name, ...(finalizers ? { finalizers } : {}) } });
    assert.equal(c.status, 201, c.text);
    return c.json;
  };

  const live: { name: string; meta: Record<string, unknown>; causes: [string, string][] }[] = [
    {
      name: 'deletionTimestamp', meta: { deletionTimestamp: '2024-05-01T10:00:00Z' },
      causes: [['metadata.deletionTimestamp', 'Invalid value: 2024-05-01 10:00:00 +0000 UTC: field is immutable']],
    },
    {
      name: 'deletionTimestamp in another zone', meta: { deletionTimestamp: '2024-05-01T12:00:00+02:00' },
      causes: [['metadata.deletionTimestamp', 'Invalid value: 2024-05-01 10:00:00 +0000 UTC: field is immutable']],
    },
    {
      name: 'deletionGracePeriodSeconds', meta: { deletionGracePeriodSeconds: 30 },
      causes: [['metadata.deletionGracePeriodSeconds', 'Invalid value: 30: field is immutable']],
    },
    {
      name: 'both (a generation sent is replaced by the stored one)', meta: { deletionTimestamp: '2024-05-01T10:00:00Z', deletionGracePeriodSeconds: 0, generation: 7 },
      causes: [
        ['metadata.deletionTimestamp', 'Invalid value: 2024-05-01 10:00:00 +0000 UTC: field is immutable'],
        ['metadata.deletionGracePeriodSeconds', 'Invalid value: 0: field is immutable'],
      ],
    },
  ];
  for (const [i, c] of live.entries()) {
    it(`PUT setting ${c.name} on a live object is 422`, async () => {
      const s = await secret(`live-${i}`);
      const r = await plat.admin.put(`${SECRETS}/${s.metadata.name}`, { ...s, metadata: { ...s.metadata, ...c.meta } });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.json.details.causes.map((x: any) => [x.field, x.message]), c.causes);
      assert.equal(r.json.message, `Secret "${s.metadata.name}" is invalid: ${c.causes.length > 1 ? `[${c.causes.map(([f, m]) => `${f}: ${m}`).join(', ')}]` : `${c.causes[0]![0]}: ${c.causes[0]![1]}`}`);
    });
  }

  it('a merge patch setting deletionTimestamp is 422 too', async () => {
    await secret('patched');
    const r = await plat.admin.patch(`${SECRETS}/patched`, { metadata: { deletionTimestamp: '2024-05-01T10:00:00Z' } }, 'application/merge-patch+json');
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.details.causes[0].message, 'Invalid value: 2024-05-01 10:00:00 +0000 UTC: field is immutable');
  });

  it('on an object being deleted, deletionTimestamp and a dropped grace period are kept; a changed grace period is 422', async () => {
    await secret('dying', ['example.com/hold']);
    const marked = await plat.admin.delete(`${SECRETS}/dying`);
    assert.equal(marked.status, 200, marked.text);
    const { deletionTimestamp, deletionGracePeriodSeconds } = marked.json.metadata;
    assert.equal(deletionGracePeriodSeconds, 0);
    const { deletionGracePeriodSeconds: _dropped, ...rest } = marked.json.metadata;
    const kept = await plat.admin.put(`${SECRETS}/dying`, { ...marked.json, metadata: { ...rest, deletionTimestamp: '2030-01-01T00:00:00Z', labels: { a: 'b' } } });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.metadata.deletionTimestamp, deletionTimestamp);
    assert.equal(kept.json.metadata.deletionGracePeriodSeconds, 0);
    const changed = await plat.admin.put(`${SECRETS}/dying`, { ...kept.json, metadata: { ...kept.json.metadata, deletionGracePeriodSeconds: 30 } });
    assert.equal(changed.status, 422, changed.text);
    assert.equal(changed.json.details.causes[0].message, 'Invalid value: 30: field is immutable');
    const released = await plat.admin.patch(`${SECRETS}/dying`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    assert.equal(released.status, 200, released.text);
    assert.equal((await plat.admin.get(`${SECRETS}/dying`)).status, 404);
  });
});
