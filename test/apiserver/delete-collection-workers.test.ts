// --delete-collection-workers as upstream's Store.DeleteCollection: min(workers, items) deletes at
// once (seen as the deletes a validating admission plugin holds at the same time), fewer than one
// worker is one, the answer is the list as read whatever the count, every listed object is
// deleted and watched as DELETED; a failed delete stops its worker only, and is the answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteListed } from '../../core/registry/delete-collection.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, CSR_PATH } from '../admission/support.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { waitUntil, WatchStream } from '../helpers/watch-stream.js';
import { holdingPlugin, type Holding } from './holding-admission.js';

const SIGNER = 'example.com/held';
const fx = fixtures();

async function createSet(plat: RunningPlat, set: string, n: number): Promise<string[]> {
  const names = Array.from({ length: n }, (_, i) => `hold-${set}-${i}`);
  for (const name of names) {
    const obj = csrObject(name, SIGNER, fx.ecCsrPem);
    obj.metadata.labels = { set };
    const r = await plat.admin.post(CSR_PATH, obj);
    assert.equal(r.status, 201, r.text);
  }
  return names;
}

/**
 * Deletes the set, letting the held deletes go a round at a time. Each round first waits for
 * min(workers, left) held deletes, then makes a request through the server (a delete already
 * started reaches admission meanwhile) and checks no more are held, before releasing them.
 */
async function deleteSet(plat: RunningPlat, hold: Holding, set: string, n: number, workers: number): Promise<any> {
  let answer: any;
  const request = plat.admin.delete(`${CSR_PATH}?labelSelector=set%3D${set}`).then((r) => { answer = r; });
  for (let released = 0; released < n;) {
    const atOnce = Math.min(workers, n - released);
    await waitUntil(() => (answer !== undefined || hold.waiting() >= atOnce ? true : undefined), `${atOnce} held deletes`);
    assert.equal(answer, undefined, `answered with ${n - released} deletes not yet admitted`);
    assert.equal((await plat.admin.get(`${CSR_PATH}?limit=1`)).status, 200);
    assert.equal(hold.waiting(), atOnce, `deletes held at once, ${released} released before`);
    hold.release();
    released += atOnce;
  }
  await request;
  return answer;
}

for (const c of [
  { name: 'default (1)', args: [], sets: [{ n: 6, atOnce: 1 }] },
  { name: '4', args: ['--delete-collection-workers=4'], sets: [{ n: 3, atOnce: 3 }, { n: 8, atOnce: 4 }] },
  { name: '0, which is one worker as upstream\'s', args: ['--delete-collection-workers=0'], sets: [{ n: 3, atOnce: 1 }] },
]) {
  describe(`--delete-collection-workers ${c.name}`, () => {
    let plat: RunningPlat;
    const hold = holdingPlugin({ operation: 'DELETE' });
    before(async () => { plat = await startInProcess({ args: c.args, plugins: [hold.plugin] }); });
    after(async () => { hold.release(); await plat?.stop(); });

    it('deletes min(workers, items) at once; answers with the list as read; every object deleted and watched', async () => {
      for (const [i, s] of c.sets.entries()) {
        const set = `s${i}`;
        const names = await createSet(plat, set, s.n);
        const listed = (await plat.admin.get(`${CSR_PATH}?labelSelector=set%3D${set}`)).json;
        const watch = await WatchStream.open(plat.admin, `${CSR_PATH}?watch=true&labelSelector=set%3D${set}&resourceVersion=${listed.metadata.resourceVersion}`);
        try {
          const r = await deleteSet(plat, hold, set, s.n, s.atOnce);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.kind, 'CertificateSigningRequestList');
          assert.deepEqual(r.json.items.map((o: any) => o.metadata.name), names);
          assert.deepEqual(r.json.items.map((o: any) => o.metadata.resourceVersion), listed.items.map((o: any) => o.metadata.resourceVersion));
          assert.equal(hold.peak(), s.atOnce, 'most deletes held at once');
          assert.deepEqual((await plat.admin.get(`${CSR_PATH}?labelSelector=set%3D${set}`)).json.items, []);
          const events = await watch.waitForCount(s.n);
          assert.ok(events.every((e) => e.type === 'DELETED'), watch.describe());
          const deleted = events.map((e) => e.object.metadata.name);
          // One worker deletes in list order; several in whatever order their deletes land.
          assert.deepEqual(s.atOnce === 1 ? deleted : [...deleted].sort(), names);
        } finally {
          watch.close();
        }
      }
    });
  });
}

describe('deleteListed', () => {
  const run = async (workers: number) => {
    const deleted: string[] = [];
    const error = await deleteListed(['a', 'b', 'c', 'd'], workers, async (item) => {
      await Promise.resolve();
      if (item === 'b') throw new Error(`cannot delete ${item}`);
      deleted.push(item);
    }).then(() => undefined, (e: Error) => e.message);
    return { deleted, error };
  };

  it('one worker stops at the first failure, which is the answer', async () => {
    assert.deepEqual(await run(1), { deleted: ['a'], error: 'cannot delete b' });
  });

  it('with several, the failed worker stops and the others finish the list', async () => {
    assert.deepEqual(await run(2), { deleted: ['a', 'c', 'd'], error: 'cannot delete b' });
  });

  it('an empty list deletes nothing', async () => {
    let calls = 0;
    await deleteListed([], 4, async () => { calls++; });
    assert.equal(calls, 0);
  });
});
