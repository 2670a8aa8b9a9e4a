// coordination.platform/v1 Leases as upstream's leaseStrategy serves them: an update must name the
// resourceVersion it replaces (leader election's compare-and-swap cannot be bypassed), a PUT may
// create, spec is always written, and Coordinated Leader Election's fields (a gate off in 1.32)
// are dropped. Also the collection paths' methods go-restful has no route for (405).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const ALL_LEASES = '/apis/coordination.platform/v1/leases';

describe('Leases as upstream\'s strategy serves them', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('refuses an update without a resourceVersion, in Store.Update\'s words', async () => {
    const created = await plat.admin.post(LEASES, { metadata: { name: 'cas' }, spec: { holderIdentity: 'a' } });
    assert.equal(created.status, 201, created.text);
    const blind = await plat.admin.put(`${LEASES}/cas`, { metadata: { name: 'cas' }, spec: { holderIdentity: 'b' } });
    assert.equal(blind.status, 422, blind.text);
    assert.equal(blind.json.message, 'leases.coordination.platform "cas" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    assert.deepEqual(blind.json.details, {
      name: 'cas', group: 'coordination.platform', kind: 'leases',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
    });
    assert.equal((await plat.admin.get(`${LEASES}/cas`)).json.spec.holderIdentity, 'a', 'nothing written');
    const pinned = await plat.admin.put(`${LEASES}/cas`, { metadata: { name: 'cas', resourceVersion: created.json.metadata.resourceVersion }, spec: { holderIdentity: 'b' } });
    assert.equal(pinned.status, 200, pinned.text);
    assert.equal(pinned.json.spec.holderIdentity, 'b');
  });

  it('creates on a PUT to a name that is not there', async () => {
    const r = await plat.admin.put(`${LEASES}/by-put`, { metadata: { name: 'by-put' }, spec: { holderIdentity: 'x', leaseDurationSeconds: 15 } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await plat.admin.get(`${LEASES}/by-put`)).json.spec.holderIdentity, 'x');
  });

  it('takes a PUT body\'s uid as a precondition, checked in storage before validation and create on update', async () => {
    const l1 = await plat.admin.post(LEASES, { metadata: { name: 'uid-pre' } });
    assert.equal(l1.status, 201, l1.text);
    const { uid, resourceVersion } = l1.json.metadata;
    const key = (prefix: string, name: string) => `Key: ${prefix}/coordination.platform/leases/default/${name}`;
    const failed = (name: string, k: string, stored: string) => `Operation cannot be fulfilled on leases.coordination.platform "${name}": StorageError: invalid object, Code: 4, ${k}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u-123, UID in object meta: ${stored}`;
    const cases: { name: string; path: string; body: Record<string, unknown>; code: number; message?: string }[] = [
      { name: 'another uid, an invalid spec: the precondition first', path: `${LEASES}/uid-pre`, code: 409,
        body: { metadata: { name: 'uid-pre', uid: 'u-123', resourceVersion }, spec: { leaseDurationSeconds: -1 } },
        message: failed('uid-pre', key('/registry', 'uid-pre'), uid) },
      { name: 'a uid for a Lease that is not there: not created', path: `${LEASES}/uid-gone`, code: 409,
        body: { metadata: { name: 'uid-gone', uid: 'u-123' } }, message: failed('uid-gone', key('/registry', 'uid-gone'), '') },
      { name: 'dry run: the registry\'s key, without the storage prefix', path: `${LEASES}/uid-gone?dryRun=All`, code: 409,
        body: { metadata: { name: 'uid-gone', uid: 'u-123' } }, message: failed('uid-gone', key('', 'uid-gone'), '') },
      { name: 'the stored uid', path: `${LEASES}/uid-pre`, code: 200, body: { metadata: { name: 'uid-pre', uid, resourceVersion }, spec: { holderIdentity: 'h' } } },
    ];
    for (const c of cases) {
      const r = await plat.admin.put(c.path, c.body);
      assert.equal(r.status, c.code, `${c.name}: ${r.text}`);
      if (!c.message) continue;
      assert.deepEqual([r.json.reason, r.json.message], ['Conflict', c.message], c.name);
      assert.deepEqual(r.json.details, { name: c.path.split('/').pop()!.split('?')[0], group: 'coordination.platform', kind: 'leases' }, c.name);
    }
    assert.equal((await plat.admin.get(`${LEASES}/uid-gone`)).status, 404, 'nothing created');
    assert.equal((await plat.admin.get(`${LEASES}/uid-pre`)).json.spec.holderIdentity, 'h');
  });

  it('always writes spec, {} when empty', async () => {
    const r = await plat.admin.post(LEASES, { metadata: { name: 'no-spec' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.spec, {});
    const got = await plat.admin.get(`${LEASES}/no-spec`);
    assert.deepEqual(got.json.spec, {});
    const put = await plat.admin.put(`${LEASES}/no-spec`, { metadata: { name: 'no-spec', resourceVersion: got.json.metadata.resourceVersion }, spec: null });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.spec, {});
  });

  it('drops strategy and preferredHolder (CoordinatedLeaderElection is off), whatever they hold', async () => {
    for (const [name, spec] of [
      ['cle-valid', { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' }],
      ['cle-bogus', { holderIdentity: 'a', strategy: 'Bogus' }],
      ['cle-holder-only', { holderIdentity: 'a', preferredHolder: 'b' }],
    ] as const) {
      const r = await plat.admin.post(LEASES, { metadata: { name }, spec });
      assert.equal(r.status, 201, `${name}: ${r.text}`);
      assert.deepEqual(r.json.spec, { holderIdentity: 'a' }, name);
    }
    const patched = await plat.admin.patch(`${LEASES}/cle-valid`, { spec: { strategy: 'example.com/custom', preferredHolder: 'p' } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json.spec, { holderIdentity: 'a' });
  });

  it('serves the all-namespaces path for reading only: POST and DELETE there are go-restful\'s 405', async () => {
    const methodNotAllowed = {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed', details: {}, code: 405,
    };
    const before = (await plat.admin.get(ALL_LEASES)).json.items.length;
    assert.ok(before > 0);
    for (const r of [
      await plat.admin.post(ALL_LEASES, { metadata: { name: 'x', namespace: 'default' } }),
      await plat.admin.delete(ALL_LEASES),
      await plat.admin.delete(`${ALL_LEASES}?dryRun=All`),
      await plat.admin.put(LEASES, { metadata: { name: 'x' } }),
    ]) {
      assert.equal(r.status, 405, r.text);
      assert.deepEqual(r.json, methodNotAllowed);
    }
    assert.equal((await plat.admin.get(ALL_LEASES)).json.items.length, before, 'nothing deleted');
    assert.equal((await plat.admin.get(ALL_LEASES)).status, 200);
  });

  it('describes its Table columns with the full field docs', async () => {
    const t = await plat.admin.get(LEASES, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.equal(t.status, 200, t.text);
    const byName = new Map<string, string>(t.json.columnDefinitions.map((c: any) => [c.name, c.description]));
    assert.equal(byName.get('Name'), NAME_DESCRIPTION);
    assert.equal(byName.get('Age'), CREATION_TIMESTAMP_DESCRIPTION);
    assert.match(byName.get('Holder') ?? '', /If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate\.metadata\.name field\.$/);
  });
  it('answers other methods than GET on a /watch/ path with go-restful\'s 405, not a watch', async () => {
    for (const [method, path] of [
      // Bounded: were it served as a watch, it would end after a second instead of hanging the test.
      ['POST', '/apis/coordination.platform/v1/watch/leases?timeoutSeconds=1'],
      ['DELETE', '/apis/coordination.platform/v1/watch/namespaces/default/leases?timeoutSeconds=1'],
      ['PUT', '/apis/coordination.platform/v1/watch/namespaces/default/leases/w1?timeoutSeconds=1'],
    ] as const) {
      const r = await plat.admin.request(method, path, method === 'DELETE' ? undefined : { metadata: { name: 'w1' } });
      assert.equal(r.status, 405, `${method} ${path}: ${r.text}`);
      assert.equal(r.json.message, 'the server does not allow this method on the requested resource');
    }
  });

  it('refuses a patch or apply whose object names another namespace (400), created or not', async () => {
    const missing = await plat.admin.patch(`${LEASES}/ns-apply?fieldManager=t`, JSON.stringify({ apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'ns-apply', namespace: 'other' } }), 'application/apply-patch+yaml');
    const created = await plat.admin.post(LEASES, { metadata: { name: 'ns-patch' } });
    assert.equal(created.status, 201, created.text);
    const merged = await plat.admin.patch(`${LEASES}/ns-patch`, { metadata: { namespace: 'other' } }, 'application/merge-patch+json');
    for (const r of [missing, merged]) {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
    }
    assert.equal((await plat.admin.get(`${LEASES}/ns-apply`)).status, 404, 'nothing created');
  });

  it('agrees on the answer\'s media type before writing: a 406 creates nothing', async () => {
    const r = await plat.admin.post(LEASES, { metadata: { name: 'not-acceptable' } }, { accept: 'text/html' });
    assert.equal(r.status, 406, r.text);
    assert.equal((await plat.admin.get(`${LEASES}/not-acceptable`)).status, 404, 'nothing created');
  });

  it('says when to retry in Retry-After when the Status does (a generateName conflict)', async () => {
    assert.equal((await plat.admin.post(LEASES, { metadata: { name: 'taken' } })).status, 201);
    const r = await plat.admin.post(LEASES, { metadata: { name: 'taken', generateName: 'taken-' } });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.details.retryAfterSeconds, 1);
    assert.equal(r.headers['retry-after'], '1');
  });
  it('watches one object on the legacy /watch/{resource}/{name} path, and refuses a selector naming another', async () => {
    for (const name of ['w-one', 'w-two']) assert.equal((await plat.admin.post(LEASES, { metadata: { name } })).status, 201);
    const base = '/apis/coordination.platform/v1/watch/namespaces/default/leases/w-one';
    const r = await plat.admin.get(`${base}?timeoutSeconds=1`);
    assert.equal(r.status, 200, r.text);
    const names = r.text.trim().split('\n').map((l) => JSON.parse(l).object.metadata.name);
    assert.deepEqual(names, ['w-one']);
    const other = await plat.admin.get(`${base}?timeoutSeconds=1&fieldSelector=metadata.name%3Dw-two`);
    assert.equal(other.status, 400, other.text);
    assert.equal(other.json.message, 'fieldSelector metadata.name doesn\'t match requested name');
  });

  it('answers a watch whose Accept has no stream form (YAML) or no match with 406', async () => {
    for (const accept of ['application/yaml', 'text/html']) {
      const r = await plat.admin.get(`${LEASES}?watch=1&timeoutSeconds=1`, { accept });
      assert.equal(r.status, 406, `${accept}: ${r.text}`);
      assert.match(r.text, /NotAcceptable/, 'the Status, in YAML when YAML was asked for');
    }
    assert.equal((await plat.admin.get(`${LEASES}?watch=1&timeoutSeconds=1`, { accept: 'application/json;stream=watch' })).status, 200);
  });
});
