// Server-side apply's field ownership over real HTTPS, as upstream's FieldManager.Apply and
// structured-merge-diff's Updater.Apply: the configuration's fields become the manager's Apply
// entry; a field another manager owns and the configuration changes is a 409 conflict in
// upstream's words (one, or several listed by manager) unless force; what the applier dropped is
// removed unless someone else owns it; conditions apply by type through /approval; and the first
// apply to an object without managedFields gives what it holds to "before-first-apply".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { byManager, entries } from '../helpers/managed-fields.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const GV = 'certificates.platform/v1';


describe('server-side apply', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  before(async () => { fx = fixtures(); plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const create = async (name: string, query = '', labels?: Record<string, string>) => {
    const body = baseCsr(fx, name);
    if (labels) body.metadata.labels = labels;
    const r = await plat.admin.post(`${CSRS}${query}`, body);
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const apply = (name: string, manager: string, body: unknown, query = '') =>
    plat.admin.patch(`${CSRS}/${name}?fieldManager=${manager}${query}`, JSON.stringify(body), APPLY);
  const config = (name: string, extra: { labels?: Record<string, string>; signerName?: string } = {}) => {
    const c = baseCsr(fx, name);
    if (extra.labels) c.metadata.labels = extra.labels;
    if (extra.signerName) c.spec.signerName = extra.signerName;
    return c;
  };

  it('owns the configuration, conflicts with another manager, and takes over with force', async () => {
    const first = await apply('mf-ssa', 'kubectl', config('mf-ssa', { labels: { a: '1', b: '2' } }));
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(entries(first.json).map((e) => [e.manager, e.operation, e.subresource]), [['kubectl', 'Apply', undefined]]);
    assert.deepEqual(byManager(first.json, 'kubectl')!.fieldsV1, {
      'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } }, 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} },
    });
    // The same values: no conflict, both own them.
    const shared = await apply('mf-ssa', 'other', config('mf-ssa'));
    assert.equal(shared.status, 200, shared.text);
    const conflict = await apply('mf-ssa', 'other', config('mf-ssa', { signerName: 'example.com/other' }));
    assert.equal(conflict.status, 409, conflict.text);
    assert.deepEqual(conflict.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409,
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.signerName',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.signerName' }] },
    });
    // force=false is no force; any other value is, as the parameter codec reads a *bool (force=yes, which strconv.ParseBool refuses).
    assert.equal((await apply('mf-ssa', 'other', config('mf-ssa', { signerName: 'example.com/other' }), '&force=False')).status, 409);
    const forced = await apply('mf-ssa', 'other', config('mf-ssa', { signerName: 'example.com/other' }), '&force=yes');
    assert.equal(forced.status, 200, forced.text);
    // The field moved; its value did not: the main resource resets spec (the strategy runs after the field manager).
    assert.equal(forced.json.spec.signerName, 'example.com/my-signer');
    assert.deepEqual(byManager(forced.json, 'other')!.fieldsV1, { 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } });
    assert.deepEqual(byManager(forced.json, 'kubectl')!.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } }, 'f:spec': { 'f:request': {}, 'f:usages': {} } });
  });

  it('several conflicts are listed by manager, an Update manager named with its apiVersion', async () => {
    await create('mf-many', '?fieldManager=kubectl-client-side-apply', { a: '1' });
    await plat.admin.patch(`${CSRS}/mf-many?fieldManager=labeller`, { metadata: { labels: { b: '1' } } }, MERGE);
    const r = await apply('mf-many', 'kubectl', config('mf-many', { signerName: 'example.com/x', labels: { a: '2', b: '2' } }));
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.message, 'Apply failed with 3 conflicts: conflicts with "kubectl-client-side-apply" using certificates.platform/v1:\n'
      + '- .metadata.labels.a\n- .spec.signerName\nconflicts with "labeller" using certificates.platform/v1:\n- .metadata.labels.b');
    assert.deepEqual(r.json.details.causes.map((c: { field: string }) => c.field), ['.metadata.labels.a', '.spec.signerName', '.metadata.labels.b']);
  });

  it('removes what the applier dropped unless another manager owns it', async () => {
    await apply('mf-drop', 'kubectl', config('mf-drop', { labels: { a: '1', b: '2' } }));
    await plat.admin.patch(`${CSRS}/mf-drop?fieldManager=labeller`, { metadata: { labels: { b: '3', c: '4' } } }, MERGE);
    const again = await apply('mf-drop', 'kubectl', config('mf-drop'));
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.metadata.labels, { b: '3', c: '4' });
    assert.deepEqual(byManager(again.json, 'kubectl')!.fieldsV1, { 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } });
    // Applying the same configuration again changes nothing: the same resourceVersion.
    const same = await apply('mf-drop', 'kubectl', config('mf-drop'));
    assert.equal(same.json.metadata.resourceVersion, again.json.metadata.resourceVersion);
  });

  it('applies conditions through /approval by their type, a list map', async () => {
    await apply('mf-cond', 'kubectl', config('mf-cond'));
    const cond = (type: string, reason: string) => ({ type, status: 'True', reason });
    const body = (conditions: unknown[]) => ({ apiVersion: GV, kind: 'CertificateSigningRequest', metadata: { name: 'mf-cond' }, status: { conditions } });
    const r = await plat.admin.patch(`${CSRS}/mf-cond/approval?fieldManager=approver`, JSON.stringify(body([cond('Approved', 'One')])), APPLY);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status.conditions[0].reason, 'One');
    assert.deepEqual(byManager(r.json, 'approver', 'approval'), {
      manager: 'approver', operation: 'Apply', apiVersion: GV, time: byManager(r.json, 'approver', 'approval')!.time, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Approved"}': { '.': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } },
      subresource: 'approval',
    });
  });

  it('kubectl takes over what a client-side apply set and its annotation still records, without force', async () => {
    const LAST = 'kubectl.kubernetes.io/last-applied-configuration';
    const csa = config('mf-csa', { labels: { team: 'a' } });
    const body = structuredClone(csa);
    body.metadata.annotations = { [LAST]: JSON.stringify(csa) };
    assert.equal((await plat.admin.post(`${CSRS}?fieldManager=kubectl-client-side-apply`, body)).status, 201);
    // Another manager gets the conflict; kubectl (lastAppliedManager) does not.
    const other = await apply('mf-csa', 'other', config('mf-csa', { labels: { team: 'b' } }));
    assert.equal(other.status, 409, other.text);
    assert.equal(other.json.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using certificates.platform/v1: .metadata.labels.team');
    const r = await apply('mf-csa', 'kubectl', config('mf-csa', { labels: { team: 'b' } }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.labels.team, 'b');
    assert.deepEqual(byManager(r.json, 'kubectl-client-side-apply')!.fieldsV1, {
      'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST}`]: {} }, 'f:labels': {} }, 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} },
    });
    // lastAppliedUpdater: the annotation is now the applied configuration, as unstructured encodes it.
    const last = r.json.metadata.annotations[LAST] as string;
    assert.ok(last.endsWith('}\n'));
    assert.equal(JSON.parse(last).metadata.labels.team, 'b');
    assert.deepEqual(Object.keys(JSON.parse(last)), ['apiVersion', 'kind', 'metadata', 'spec']);
    // A field the annotation does not describe as live is still a conflict for kubectl.
    await plat.admin.patch(`${CSRS}/mf-csa?fieldManager=labeller`, { metadata: { labels: { env: 'x' } } }, MERGE);
    const kept = await apply('mf-csa', 'kubectl', config('mf-csa', { labels: { team: 'b', env: 'y' } }));
    assert.equal(kept.status, 409, kept.text);
    assert.equal(kept.json.message, 'Apply failed with 1 conflict: conflict with "labeller" using certificates.platform/v1: .metadata.labels.env');
  });

  it('the first apply to an object without managedFields gives what it holds to "before-first-apply"', async () => {
    await create('mf-reset', '?fieldManager=creator');
    const reset = await plat.admin.patch(`${CSRS}/mf-reset?fieldManager=labeller`, { metadata: { managedFields: [], labels: { a: 'd' } } }, MERGE);
    assert.equal(reset.json.metadata.managedFields, undefined);
    const applied = await apply('mf-reset', 'applier', { apiVersion: GV, kind: 'CertificateSigningRequest', metadata: { name: 'mf-reset', labels: { x: 'y' } } });
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(entries(applied.json).map((e) => [e.manager, e.operation]), [['applier', 'Apply'], ['before-first-apply', 'Update']]);
    assert.deepEqual(byManager(applied.json, 'before-first-apply')!.fieldsV1, {
      'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
      'f:spec': {
        'f:extra': { '.': {}, 'f:authentication.platform/credential-id': {} },
        'f:groups': {}, 'f:request': {}, 'f:signerName': {}, 'f:usages': {}, 'f:username': {},
      },
    });
    assert.deepEqual(byManager(applied.json, 'applier')!.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:x': {} } } });
  });
});
