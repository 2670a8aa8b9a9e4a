// Server-side apply's checks of the configuration, over real HTTPS, as the applyPatcher and the
// field manager chain make them: the kind and version (versionCheckManager), no managedFields
// (structuredMergeManager), go-yaml's strict duplicate keys, a uid that names no object, and a
// name (checkName); plus the names a merge patch result must carry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const APPLY = 'application/apply-patch+yaml';
const LEASE = 'apiVersion: coordination.platform/v1\nkind: Lease\n';

describe('server-side apply checks the configuration', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const r = await plat.admin.post(LEASES, { metadata: { name: 'a1' }, spec: { holderIdentity: 'a' } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await plat?.stop(); });

  const apply = (name: string, body: string, query = '') =>
    plat.admin.request('PATCH', `${LEASES}/${name}?fieldManager=t${query}`, body, { 'content-type': APPLY });

  it('400s, existing object or not, leaving it as it was', async () => {
    const cases: Array<[string, string, string]> = [
      ['a1', '{"spec": {"holderIdentity": "x"}}', 'invalid object type: /, Kind='],
      ['a1', '', 'invalid object type: /, Kind='],
      ['a1', 'null', 'invalid object type: /, Kind='],
      ['new1', '{"metadata": {"name": "new1"}}', 'invalid object type: /, Kind='],
      ['a1', 'apiVersion: coordination.platform/v2\nkind: Lease\n', 'invalid object type: coordination.platform/v2, Kind=Lease'],
      ['a1', 'apiVersion: v1\nkind: Lease\n', 'invalid object type: /v1, Kind=Lease'],
      ['a1', 'apiVersion: a/b/c\nkind: Lease\n', 'invalid object type: /, Kind='],
      ['a1', 'apiVersion: coordination.platform/v1\nkind: Pod\n', 'invalid object type: coordination.platform/v1, Kind=Pod'],
      ['a1', `${LEASE}metadata:\n  name: a1\n  managedFields: []\n`, 'metadata.managedFields must be nil'],
      ['new2', `${LEASE}metadata:\n  name: new2\n  managedFields:\n  - manager: x\n`, 'metadata.managedFields must be nil'],
      // The live value: a changed one would be a field-manager conflict, found before the name.
      ['a1', `${LEASE}spec:\n  holderIdentity: a\n`.replace('kind: Lease\n', 'kind: Lease\nmetadata:\n  name: other\n'),
        'the name of the object (other) does not match the name on the URL (a1)'],
      ['new3', `${LEASE}spec:\n  holderIdentity: x\n`, 'the name of the object (new3 based on URL) was undeterminable: name must be provided'],
      ['a1', `${LEASE}metadata:\n  name: a1\nspec:\n  holderIdentity: b\n  leaseDurationSeconds: 5\n  holderIdentity: c\n`,
        'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "holderIdentity" already set in map'],
    ];
    for (const [name, body, want] of cases) {
      const r = await apply(name, body, want.startsWith('error strict') ? '&fieldValidation=Strict&force=true' : '');
      assert.equal(r.status, 400, `${body}: ${r.text}`);
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.message, want, body);
    }
    const after = await plat.admin.get(`${LEASES}/a1`);
    assert.equal(after.json.spec.holderIdentity, 'a');
    // Only the create's entry (its client sends no User-Agent): no apply was recorded.
    assert.deepEqual(after.json.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation]), [['unknown', 'Update']]);
    for (const n of ['new1', 'new2', 'new3']) assert.equal((await plat.admin.get(`${LEASES}/${n}`)).status, 404, n);
  });

  it('duplicate keys are warnings under Warn (the default) and ignored under Ignore; the last one wins', async () => {
    const body = `${LEASE}metadata:\n  name: a1\n  labels: {k: "1", k: "2"}\nspec:\n  holderIdentity: b\n  holderIdentity: c\n`;
    // Forced: the creator owns spec.holderIdentity.
    const warned = await apply('a1', body, '&force=true');
    assert.equal(warned.status, 200, warned.text);
    assert.equal(warned.headers.warning, '299 - "line 5: key \\"k\\" already set in map", 299 - "line 8: key \\"holderIdentity\\" already set in map"');
    assert.equal(warned.json.spec.holderIdentity, 'c');
    assert.equal(warned.json.metadata.labels.k, '2');
    const ignored = await apply('a1', body, '&fieldValidation=Ignore&force=true');
    assert.equal(ignored.status, 200, ignored.text);
    assert.equal(ignored.headers.warning, undefined);
  });

  it('a uid in a configuration that creates is a 409 conflict', async () => {
    const r = await apply('c2', `${LEASE}metadata:\n  name: c2\n  uid: "1234"\n`);
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.reason, 'Conflict');
    assert.equal(r.json.message, 'Operation cannot be fulfilled on leases.coordination.platform "c2": uid mismatch: the provided object specified uid 1234, and no existing object was found');
    assert.equal((await plat.admin.get(`${LEASES}/c2`)).status, 404);
  });

  it('a merge patch or PUT whose result has no name: checkName cannot determine it', async () => {
    const want = 'the name of the object (a1 based on URL) was undeterminable: name must be provided';
    const patched = await plat.admin.patch(`${LEASES}/a1`, { metadata: { name: null } }, 'application/merge-patch+json');
    const put = await plat.admin.put(`${LEASES}/a1`, { metadata: {} });
    for (const r of [patched, put]) {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, want);
    }
  });
});
