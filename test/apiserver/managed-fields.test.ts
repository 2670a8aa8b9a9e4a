// metadata.managedFields over real HTTPS, as upstream's FieldManager keeps them: Update entries for
// creates, updates and patches (manager from fieldManager or the User-Agent, subresource, the
// strategy's reset fields never owned), ownership moving to whoever changes a field, resets and
// invalid entries from a client, the cap of ten Update managers, and list answers carrying them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { byManager, entries } from '../helpers/managed-fields.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const MERGE = 'application/merge-patch+json';
const GV = 'certificates.platform/v1';


describe('managedFields', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  before(async () => { fx = fixtures(); plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const create = async (name: string, query = '', headers: Record<string, string> = {}, labels?: Record<string, string>) => {
    const body = baseCsr(fx, name);
    if (labels) body.metadata.labels = labels;
    const r = await plat.admin.post(`${CSRS}${query}`, body, headers);
    assert.equal(r.status, 201, r.text);
    return r.json;
  };

  it('a create records an Update entry for the fieldManager, or the User-Agent up to its first "/"', async () => {
    const a = await create('mf-create', '?fieldManager=creator', {}, { team: 'a' });
    assert.equal(entries(a).length, 1);
    const e = entries(a)[0]!;
    assert.deepEqual({ ...e, time: undefined }, {
      manager: 'creator', operation: 'Update', apiVersion: GV, time: undefined, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } }, 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } },
    });
    assert.match(e.time!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const b = await create('mf-ua', '', { 'user-agent': 'kubectl-create/v1.32.0 (linux/amd64) kubernetes/abc' });
    assert.equal(entries(b)[0]!.manager, 'kubectl-create');
    const c = await create('mf-noua', '', { 'user-agent': '' });
    assert.equal(entries(c)[0]!.manager, 'unknown');
    const listed = await plat.admin.get(`${CSRS}?fieldSelector=metadata.name=mf-create`);
    assert.deepEqual(listed.json.items[0].metadata.managedFields, a.metadata.managedFields);
  });

  it('a change moves the field to its writer; subresources are their own managers and never own reset fields', async () => {
    await create('mf-move', '?fieldManager=creator', {}, { team: 'a', keep: 'x' });
    const patched = await plat.admin.patch(`${CSRS}/mf-move?fieldManager=relabeller`, { metadata: { labels: { team: 'b' } }, status: { certificate: 'eA==' } }, MERGE);
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(byManager(patched.json, 'creator')!.fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:keep': {} } }, 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } });
    // status is reset on the main resource (GetResetFields): not owned, and not changed either.
    assert.deepEqual(byManager(patched.json, 'relabeller')!.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {} } } });
    const current = patched.json;
    current.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'ByTest' }] };
    current.spec.signerName = 'example.com/changed';
    const approved = await plat.admin.put(`${CSRS}/mf-move/approval?fieldManager=approver`, current);
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(byManager(approved.json, 'approver', 'approval'), {
      manager: 'approver', operation: 'Update', apiVersion: GV, time: byManager(approved.json, 'approver', 'approval')!.time,
      fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Approved"}': { '.': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } },
      subresource: 'approval',
    });
    assert.deepEqual(entries(approved.json).map((e) => e.manager).sort(), ['approver', 'creator', 'relabeller']);
    // The approval's spec change is reset, and owned by nobody new.
    assert.equal(approved.json.spec.signerName, 'example.com/my-signer');
  });

  it('a client may set managedFields, reset them with [], and an invalid list keeps the stored ones', async () => {
    const made = await create('mf-reset', '?fieldManager=creator');
    const stored = made.metadata.managedFields;
    const invalid = structuredClone(made);
    invalid.metadata.managedFields = [{ manager: 'x', operation: 'Update', apiVersion: GV, fieldsType: 'FieldsV2', fieldsV1: {} }];
    invalid.metadata.labels = { a: 'b' };
    const kept = await plat.admin.put(`${CSRS}/mf-reset?fieldManager=labeller`, invalid);
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(byManager(kept.json, 'creator')!.fieldsV1, stored[0].fieldsV1);
    assert.deepEqual(byManager(kept.json, 'labeller')!.fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
    const reset = await plat.admin.patch(`${CSRS}/mf-reset?fieldManager=labeller`, { metadata: { managedFields: [], labels: { a: 'c' } } }, MERGE);
    assert.equal(reset.status, 200, reset.text);
    assert.equal(reset.json.metadata.managedFields, undefined);
    // An object without managedFields is not tracked again by updates (skipNonAppliedManager)...
    const untracked = await plat.admin.patch(`${CSRS}/mf-reset?fieldManager=labeller`, { metadata: { labels: { a: 'd' } } }, MERGE);
    assert.equal(untracked.json.metadata.managedFields, undefined);
  });

  it('keeps at most ten Update managers, the oldest merged into "ancient-changes"', async () => {
    await create('mf-cap', '?fieldManager=m00');
    let last;
    for (let i = 1; i <= 11; i++) {
      last = await plat.admin.patch(`${CSRS}/mf-cap?fieldManager=m${String(i).padStart(2, '0')}`, { metadata: { labels: { [`l${i}`]: 'v' } } }, MERGE);
      assert.equal(last.status, 200, last.text);
    }
    const updates = entries(last!.json).filter((e) => e.operation === 'Update');
    assert.equal(updates.length, 10);
    const ancient = updates.find((e) => e.manager === 'ancient-changes')!;
    assert.ok(ancient, JSON.stringify(updates.map((e) => e.manager)));
    assert.ok(!updates.some((e) => e.manager === 'm00' || e.manager === 'm01' || e.manager === 'm02'));
    assert.deepEqual(Object.keys((ancient.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>)['f:metadata']!['f:labels']!).sort(), ['.', 'f:l1', 'f:l2']);
  });
});
