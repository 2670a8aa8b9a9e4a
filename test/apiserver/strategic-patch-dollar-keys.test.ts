// `$` keys a strategic merge patch carries where they are no directive, over real HTTPS: in an item
// of an atomic list (a RoleBinding's subjects), which mergeSliceHandler takes as it is, and as an
// unknown key of a struct, which mergeMap takes as any other key. Either is then an unknown field of
// the patched object: a warning under Warn (the default), nothing under Ignore, and Strict's 422 on
// the field "patch".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const SMP = 'application/strategic-merge-patch+json';
const BINDINGS = '/apis/rbac.authorization.platform/v1/namespaces/default/rolebindings';
const G = 'rbac.authorization.platform';
const bob = { kind: 'User', name: 'bob', apiGroup: G };

describe('strategic merge patch: $ keys that are no directive', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const r = await plat.admin.post(BINDINGS, {
      metadata: { name: 'rb1' }, roleRef: { apiGroup: G, kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: G }],
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await plat?.stop(); });

  const patch = (body: unknown, query = '') => plat.admin.request('PATCH', `${BINDINGS}/rb1${query}`, JSON.stringify(body), { 'content-type': SMP });

  it('in an atomic list\'s item: the list is the patch\'s, the key an unknown field (warned by default)', async () => {
    const cases: Array<[string, unknown]> = [
      ['$patch', 'delete'], ['$retainKeys', ['name']], ['$setElementOrder/x', []], ['$deleteFromPrimitiveList/y', ['z']], ['$foo', 'x'],
    ];
    for (const [key, value] of cases) {
      const r = await patch({ subjects: [{ ...bob, [key]: value }] });
      assert.equal(r.status, 200, `${key}: ${r.text}`);
      assert.deepEqual(r.json.subjects, [bob], key);
      assert.equal(r.headers.warning, `299 - "unknown field \\"subjects[0].${key}\\""`, key);
    }
    const ignored = await patch({ subjects: [{ ...bob, name: 'carol', $patch: 'delete' }] }, '?fieldValidation=Ignore');
    assert.equal(ignored.status, 200, ignored.text);
    assert.equal(ignored.headers.warning, undefined);
    assert.deepEqual(ignored.json.subjects, [{ ...bob, name: 'carol' }]);
  });

  it('Strict: 422 on the field "patch" naming the unknown field; the object stays', async () => {
    const before = await plat.admin.get(`${BINDINGS}/rb1`);
    const r = await patch({ subjects: [{ ...bob, name: 'dave', $patch: 'delete' }] }, '?fieldValidation=Strict');
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
    assert.equal(r.json.details.causes[0].field, 'patch');
    assert.equal(r.json.details.causes[0].message,
      `Invalid value: "map[subjects:[map[$patch:delete apiGroup:${G} kind:User name:dave]]]": strict decoding error: unknown field "subjects[0].$patch"`);
    const after = await plat.admin.get(`${BINDINGS}/rb1`);
    assert.equal(after.json.metadata.resourceVersion, before.json.metadata.resourceVersion);
  });

  it('an unknown $ key of a struct is a field like any other: warned, not refused', async () => {
    const r = await patch({ roleRef: { $frob: 1 }, metadata: { labels: { a: 'b' } } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.warning, '299 - "unknown field \\"roleRef.$frob\\""');
    assert.equal(r.json.metadata.labels.a, 'b');
    const strict = await patch({ roleRef: { $frob: 1 } }, '?fieldValidation=Strict');
    assert.equal(strict.status, 422, strict.text);
    assert.match(strict.json.details.causes[0].message, /: strict decoding error: unknown field "roleRef\.\$frob"$/);
  });
});
