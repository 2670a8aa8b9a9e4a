// The garbage collector's finalizers as a DELETE sets them (store.go's
// deletionFinalizersForGarbageCollection and updateForGracefulDeletionAndFinalizers): the table of
// propagation policies, orphanDependents and existing finalizers; then over real HTTPS, with no
// controller to take them off again: a foreground or orphan delete keeps the object marked, a later
// delete changes the finalizers or (background) deletes it, a dry run stores nothing, and with
// --enable-garbage-collector=false none is ever set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deletionFinalizersForGarbageCollection } from '../../core/registry/gc-finalizers.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const S = '/api/v1/namespaces/default/secrets';

describe('garbage collector finalizers on DELETE', () => {
  it('follow the request, then the existing finalizers, then the default (background)', () => {
    // [name, options, finalizers before, finalizers after (undefined: the set is unchanged)]
    const table: [string, { propagationPolicy?: string; orphanDependents?: boolean }, string[], string[] | undefined][] = [
      ['nothing asked, none there', {}, [], undefined],
      ['Background', { propagationPolicy: 'Background' }, [], undefined],
      ['Foreground', { propagationPolicy: 'Foreground' }, [], ['foregroundDeletion']],
      ['Orphan', { propagationPolicy: 'Orphan' }, [], ['orphan']],
      ['orphanDependents=true', { orphanDependents: true }, [], ['orphan']],
      // shouldDeleteDependents: an explicit orphanDependents never asks for foreground deletion.
      ['orphanDependents=false', { orphanDependents: false }, [], undefined],
      ['others are kept, ours go last', { propagationPolicy: 'Foreground' }, ['example.com/a'], ['example.com/a', 'foregroundDeletion']],
      ['nothing asked keeps orphan', {}, ['orphan'], undefined],
      ['nothing asked keeps foregroundDeletion', {}, ['foregroundDeletion', 'example.com/a'], undefined],
      ['Background takes foregroundDeletion off', { propagationPolicy: 'Background' }, ['foregroundDeletion', 'example.com/a'], ['example.com/a']],
      ['Background takes orphan off', { propagationPolicy: 'Background' }, ['orphan'], []],
      ['Orphan replaces foregroundDeletion', { propagationPolicy: 'Orphan' }, ['foregroundDeletion'], ['orphan']],
      ['Foreground replaces orphan', { propagationPolicy: 'Foreground' }, ['example.com/a', 'orphan'], ['example.com/a', 'foregroundDeletion']],
      ['orphanDependents=false takes orphan off', { orphanDependents: false }, ['orphan'], []],
      ['orphanDependents=true replaces foregroundDeletion', { orphanDependents: true }, ['foregroundDeletion'], ['orphan']],
      ['both there, nothing asked: the first one counts', {}, ['orphan', 'foregroundDeletion'], ['orphan']],
      ['the same set in another order is no change', { propagationPolicy: 'Foreground' }, ['foregroundDeletion', 'example.com/a'], undefined],
    ];
    for (const [name, options, before, after] of table) {
      assert.deepEqual(deletionFinalizersForGarbageCollection(before, options), after, name);
    }
  });

  describe('served', () => {
    let plat: RunningPlat;
    let off: RunningPlat;
    // No controllers: nothing takes the finalizers off again.
    before(async () => {
      [plat, off] = await Promise.all([startInProcess({ args: ['--controllers='] }), startInProcess({ args: ['--controllers=', '--enable-garbage-collector=false'] })]);
    });
    after(async () => { await plat?.stop(); await off?.stop(); });

    const make = async (p: RunningPlat, name: string) => {
      const r = await p.admin.post(S, { metadata: { name } });
      assert.equal(r.status, 201, r.text);
      return r.json;
    };

    it('a foreground or orphan delete marks the object; a later delete changes its finalizers or deletes it', async () => {
      const made = await make(plat, 'held');
      const fg = await plat.admin.request('DELETE', `${S}/held?propagationPolicy=Foreground`);
      assert.equal(fg.status, 200, fg.text);
      assert.deepEqual(fg.json.metadata.finalizers, ['foregroundDeletion']);
      assert.match(fg.json.metadata.deletionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(fg.json.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(fg.json.metadata.uid, made.metadata.uid);
      assert.deepEqual((await plat.admin.get(`${S}/held`)).json.metadata.finalizers, ['foregroundDeletion']);

      // A delete asking for nothing leaves it as it is (nothing written).
      const same = await plat.admin.request('DELETE', `${S}/held`);
      assert.equal(same.status, 200, same.text);
      assert.equal(same.json.metadata.resourceVersion, fg.json.metadata.resourceVersion);

      const orphan = await plat.admin.request('DELETE', `${S}/held`, { propagationPolicy: 'Orphan' });
      assert.equal(orphan.status, 200, orphan.text);
      assert.deepEqual(orphan.json.metadata.finalizers, ['orphan']);
      assert.equal(orphan.json.metadata.deletionTimestamp, fg.json.metadata.deletionTimestamp, 'the deletion keeps its start');

      const bg = await plat.admin.request('DELETE', `${S}/held?propagationPolicy=Background`);
      assert.equal(bg.status, 200, bg.text);
      assert.equal(bg.json.kind, 'Status');
      assert.equal((await plat.admin.get(`${S}/held`)).status, 404);

      await make(plat, 'orphaned');
      const od = await plat.admin.request('DELETE', `${S}/orphaned?orphanDependents=true`);
      assert.equal(od.status, 200, od.text);
      assert.deepEqual(od.json.metadata.finalizers, ['orphan']);
      // orphanDependents=false takes the orphan finalizer off: nothing holds the object any more.
      const gone = await plat.admin.request('DELETE', `${S}/orphaned`, { orphanDependents: false });
      assert.equal(gone.status, 200, gone.text);
      assert.equal(gone.json.kind, 'Status');
      assert.equal((await plat.admin.get(`${S}/orphaned`)).status, 404, 'orphanDependents=false took the orphan finalizer off');
    });

    it('an object may not carry both (ValidateFinalizers), on create or update, of any group; an update\'s finalizer names are checked too', async () => {
      const both = ['orphan', 'example.com/a', 'foregroundDeletion'];
      const message = 'metadata.finalizers: Invalid value: []string{"orphan", "example.com/a", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set';
      const created = await plat.admin.post(S, { metadata: { name: 'both', finalizers: both } });
      assert.equal(created.status, 422, created.text);
      assert.ok(created.json.message.endsWith(message), created.json.message);
      const CR = '/apis/rbac.authorization.platform/v1/clusterroles';
      assert.equal((await plat.admin.post(CR, { metadata: { name: 'gc-both' } })).status, 201);
      const updated = await plat.admin.patch(`${CR}/gc-both`, { metadata: { finalizers: both } }, 'application/merge-patch+json');
      assert.equal(updated.status, 422, updated.text);
      assert.ok(updated.json.message.endsWith(message), updated.json.message);
      const badName = await plat.admin.patch(`${CR}/gc-both`, { metadata: { finalizers: ['a b'] } }, 'application/merge-patch+json');
      assert.equal(badName.status, 422, badName.text);
      assert.match(badName.json.message, /metadata\.finalizers\[0\]: Invalid value: "a b": name part must consist of/);
      assert.equal((await plat.admin.delete(`${CR}/gc-both`)).status, 200);
    });

    it('a dry run answers with the finalizers set and stores nothing; background or unset deletes at once', async () => {
      const made = await make(plat, 'dry');
      const dry = await plat.admin.request('DELETE', `${S}/dry?propagationPolicy=Foreground&dryRun=All`);
      assert.equal(dry.status, 200, dry.text);
      assert.deepEqual(dry.json.metadata.finalizers, ['foregroundDeletion']);
      assert.ok(dry.json.metadata.deletionTimestamp);
      assert.deepEqual((await plat.admin.get(`${S}/dry`)).json, made);
      for (const query of ['', '?propagationPolicy=Background']) {
        await make(plat, 'now');
        const r = await plat.admin.request('DELETE', `${S}/now${query}`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.kind, 'Status', query);
        assert.equal((await plat.admin.get(`${S}/now`)).status, 404, query);
      }
    });

    it('--enable-garbage-collector=false sets none: a foreground delete deletes at once', async () => {
      for (const query of ['propagationPolicy=Foreground', 'propagationPolicy=Orphan', 'orphanDependents=true']) {
        await make(off, 'gone');
        const r = await off.admin.request('DELETE', `${S}/gone?${query}`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.kind, 'Status', query);
        assert.equal((await off.admin.get(`${S}/gone`)).status, 404, query);
      }
    });
  });
});
