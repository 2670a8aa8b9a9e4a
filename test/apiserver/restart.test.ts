// A restart on the same --data-dir keeps everything: objects with their uids and resourceVersions,
// the list resourceVersion, and the event history a watch resumes from; new writes continue the
// revision sequence.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const MERGE = 'application/merge-patch+json';

describe('restart on the same data directory', () => {
  const dataDir = tempDir('plat-restart-');
  let plat: RunningPlat | undefined;
  let watch: WatchStream | undefined;
  after(async () => {
    watch?.close();
    await plat?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps objects, uids, resourceVersions and watch history', async () => {
    const fx = fixtures();
    plat = await startInProcess({ dataDir });
    const admin = plat.admin;
    const post = async (name: string) => {
      const r = await admin.post(P, baseCsr(fx, name));
      assert.equal(r.status, 201, r.text);
      return r.json;
    };
    await post('keep-1');
    await post('keep-2');
    const mark = (await admin.get(P)).json.metadata.resourceVersion as string;

    // The history after `mark`, as a watch from it must replay it.
    const expected: { type: string; name: string; rv: string }[] = [];
    const c = await post('gone-3');
    expected.push({ type: 'ADDED', name: 'gone-3', rv: c.metadata.resourceVersion });
    const approved = await admin.patch(`${P}/keep-1/approval`,
      { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'TestApprove', message: 'approved by the restart test' }] } }, MERGE);
    assert.equal(approved.status, 200, approved.text);
    expected.push({ type: 'MODIFIED', name: 'keep-1', rv: approved.json.metadata.resourceVersion });
    const beforeDelete = Number((await admin.get(P)).json.metadata.resourceVersion);
    const del = await admin.delete(`${P}/gone-3`);
    assert.equal(del.status, 200, del.text);
    expected.push({ type: 'DELETED', name: 'gone-3', rv: String(beforeDelete + 1) });
    const labelled = await admin.patch(`${P}/keep-2`, { metadata: { labels: { restarted: 'soon' } } }, MERGE);
    assert.equal(labelled.status, 200, labelled.text);
    expected.push({ type: 'MODIFIED', name: 'keep-2', rv: labelled.json.metadata.resourceVersion });

    const listBefore = (await admin.get(P)).json;
    assert.deepEqual(listBefore.items.map((i: any) => i.metadata.name), ['keep-1', 'keep-2']);
    assert.equal(listBefore.metadata.resourceVersion, labelled.json.metadata.resourceVersion);
    const getsBefore = await Promise.all(['keep-1', 'keep-2'].map(async (n) => (await admin.get(`${P}/${n}`)).json));
    await plat.stop();
    plat = undefined;

    plat = await startInProcess({ dataDir });
    const again = plat.admin;
    const listAfter = (await again.get(P)).json;
    assert.deepEqual(listAfter.items, listBefore.items);
    assert.equal(listAfter.metadata.resourceVersion, listBefore.metadata.resourceVersion);
    for (const obj of getsBefore) {
      const r = await again.get(`${P}/${obj.metadata.name}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, obj);
    }
    assert.equal((await again.get(`${P}/keep-1`)).json.status.conditions[0].type, 'Approved');
    assert.equal((await again.get(`${P}/gone-3`)).status, 404);
    // Past states are still readable exactly.
    const atMark = await again.get(`${P}?resourceVersion=${mark}&resourceVersionMatch=Exact`);
    assert.equal(atMark.status, 200, atMark.text);
    assert.deepEqual(atMark.json.items.map((i: any) => i.metadata.name), ['keep-1', 'keep-2']);
    assert.equal(atMark.json.items[0].status.conditions, undefined);

    // A watch from before the restart replays exactly the events after it, in order.
    watch = await WatchStream.open(again, `${P}?watch=true&resourceVersion=${mark}`);
    assert.equal(watch.status, 200);
    const replayed = await watch.waitForCount(expected.length);
    assert.deepEqual(replayed.map((e) => ({ type: e.type, name: e.object.metadata.name, rv: e.object.metadata.resourceVersion })), expected);
    assert.equal(replayed[1]!.object.status.conditions[0].type, 'Approved');
    assert.equal(replayed[3]!.object.metadata.labels.restarted, 'soon');

    // New writes get higher revisions, and the watch goes on live right after the history.
    const fresh = await again.post(P, baseCsr(fx, 'after-restart'));
    assert.equal(fresh.status, 201, fresh.text);
    assert.equal(Number(fresh.json.metadata.resourceVersion), Number(listBefore.metadata.resourceVersion) + 1);
    const [next] = (await watch.waitForCount(expected.length + 1)).slice(expected.length);
    assert.equal(next!.type, 'ADDED');
    assert.equal(next!.object.metadata.name, 'after-restart');
    assert.equal(next!.object.metadata.resourceVersion, fresh.json.metadata.resourceVersion);
    assert.equal(watch.events.length, expected.length + 1);
    const uids = new Set([...listBefore.items.map((i: any) => i.metadata.uid), fresh.json.metadata.uid]);
    assert.equal(uids.size, 3);
    assert.equal((await again.get(P)).json.metadata.resourceVersion, fresh.json.metadata.resourceVersion);
  });
});
