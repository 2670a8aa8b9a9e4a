// The behaviour every Storage engine must show, registered as node:test suites. An engine's test
// file calls runStorageConformance(name, factory); `open(dir)` may be called again on the same dir
// after close() (the restart tests), and must then see everything written before.
//
// Engine-specific choices the suite accepts either way: whether watch() throws synchronously or
// its first next() rejects, and whether list at exactly the compacted revision is served.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isStorageError, type Storage, type StorageErrorCode, type StorageEvent, type Watch } from '../../core/storage/storage.js';

export interface StorageFactory {
  open(dir: string): Promise<Storage>;
}

async function rejectsWith(promise: Promise<unknown>, code: StorageErrorCode, revision?: number): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(isStorageError(e, code), `expected StorageError ${code}, got ${String(e)}`);
    if (revision !== undefined) assert.equal(e.revision, revision, `${code} revision`);
    return true;
  });
}

/** The next `n` events of a watch, in order (no timeouts: a missing event hangs the test, which node:test reports). */
async function take(watch: Watch, n: number): Promise<StorageEvent[]> {
  const it = watch[Symbol.asyncIterator]();
  const out: StorageEvent[] = [];
  while (out.length < n) {
    const r = await it.next();
    assert.ok(!r.done, `watch ended after ${out.length} of ${n} events`);
    out.push(r.value);
  }
  return out;
}

async function watchFails(storage: Storage, prefix: string, fromRevision: number, code: StorageErrorCode, revision?: number): Promise<void> {
  let watch: Watch;
  try {
    watch = storage.watch(prefix, { fromRevision });
  } catch (e) {
    assert.ok(isStorageError(e, code), `expected StorageError ${code}, got ${String(e)}`);
    if (revision !== undefined) assert.equal(e.revision, revision);
    return;
  }
  try {
    await rejectsWith(watch[Symbol.asyncIterator]().next(), code, revision);
  } finally {
    watch.close();
  }
}

const brief = (e: StorageEvent) => ({ type: e.type, key: e.key, value: e.value, prevValue: e.prevValue, revision: e.revision });

export function runStorageConformance(engineName: string, factory: StorageFactory): void {
  /** A fresh temp dir and storage per test, always closed and removed. */
  const withStorage = (fn: (s: Storage, dir: string, reopen: () => Promise<Storage>) => Promise<void>) => async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plat-storage-${engineName}-`));
    let storage = await factory.open(dir);
    const reopen = async () => {
      await storage.close();
      storage = await factory.open(dir);
      return storage;
    };
    try {
      await fn(storage, dir, reopen);
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  describe(`storage conformance: ${engineName}`, () => {
    describe('create and get', () => {
      it('starts at revision 0, creates, reads back, and refuses a second create with KeyExists', withStorage(async (s) => {
        assert.equal(typeof s.engine, 'string');
        assert.deepEqual([await s.currentRevision(), await s.compactedRevision(), await s.get('/a/x')], [0, 0, undefined]);
        const kv = await s.create('/a/x', { n: 1, nested: { list: [1, 'two'] } });
        assert.deepEqual(kv, { key: '/a/x', value: { n: 1, nested: { list: [1, 'two'] } }, createRevision: 1, modRevision: 1 });
        assert.deepEqual(await s.get('/a/x'), kv);
        await rejectsWith(s.create('/a/x', { n: 2 }), 'KeyExists');
        assert.deepEqual((await s.get('/a/x'))?.value, { n: 1, nested: { list: [1, 'two'] } });
        assert.equal(await s.currentRevision(), 1, 'a failed create takes no revision');
      }));

      it('hands out values the caller owns from get, and frozen ones from writes', withStorage(async (s) => {
        const input = { n: 1, list: [1] };
        const created = await s.create('/a/x', input);
        input.list.push(2);
        // A write's answer is what its watchers are given: nobody may change it.
        assert.throws(() => { (created.value as { n: number }).n = 99; }, TypeError);
        assert.throws(() => { (created.value as { list: number[] }).list.push(3); }, TypeError);
        const got = await s.get('/a/x');
        assert.deepEqual(got?.value, { n: 1, list: [1] });
        (got?.value as { n: number }).n = 42;
        assert.deepEqual((await s.get('/a/x'))?.value, { n: 1, list: [1] });
      }));
    });

    describe('update and delete', () => {
      it('updates with the right modRevision and keeps createRevision', withStorage(async (s) => {
        const a = await s.create('/a/x', { v: 1 });
        await s.create('/a/y', { v: 1 });
        const b = await s.update('/a/x', { v: 2 }, a.modRevision);
        assert.deepEqual(b, { key: '/a/x', value: { v: 2 }, createRevision: 1, modRevision: 3 });
        const c = await s.update('/a/x', { v: 3 }, b.modRevision);
        assert.equal(c.createRevision, 1);
        assert.equal(c.modRevision, 4);
        assert.deepEqual(await s.get('/a/x'), c);
      }));

      it('rejects a stale update with Conflict carrying the current modRevision', withStorage(async (s) => {
        const a = await s.create('/a/x', { v: 1 });
        const b = await s.update('/a/x', { v: 2 }, a.modRevision);
        await rejectsWith(s.update('/a/x', { v: 3 }, a.modRevision), 'Conflict', b.modRevision);
        assert.deepEqual(await s.get('/a/x'), b);
        assert.equal(await s.currentRevision(), b.modRevision);
      }));

      it('NotFound on update or delete of a missing key', withStorage(async (s) => {
        await rejectsWith(s.update('/a/missing', { v: 1 }, 1), 'NotFound');
        await rejectsWith(s.delete('/a/missing'), 'NotFound');
        await rejectsWith(s.delete('/a/missing', 1), 'NotFound');
        assert.equal(await s.currentRevision(), 0);
      }));

      it('deletes without a precondition, returning the last state at the deletion revision', withStorage(async (s) => {
        await s.create('/a/x', { v: 1 });
        await s.update('/a/x', { v: 2 }, 1);
        const d = await s.delete('/a/x');
        assert.deepEqual(d, { key: '/a/x', value: { v: 2 }, createRevision: 1, modRevision: 3 });
        assert.equal(await s.get('/a/x'), undefined);
        const again = await s.create('/a/x', { v: 9 });
        assert.equal(again.createRevision, 4, 'a re-created key starts a new life');
      }));

      it('deletes with a precondition, or refuses with Conflict', withStorage(async (s) => {
        const a = await s.create('/a/x', { v: 1 });
        const b = await s.update('/a/x', { v: 2 }, a.modRevision);
        await rejectsWith(s.delete('/a/x', a.modRevision), 'Conflict', b.modRevision);
        assert.deepEqual(await s.get('/a/x'), b);
        const d = await s.delete('/a/x', b.modRevision);
        assert.equal(d.modRevision, 3);
        assert.equal(await s.get('/a/x'), undefined);
      }));

      it('keeps one global, monotonic revision across keys', withStorage(async (s) => {
        const revs: number[] = [];
        revs.push((await s.create('/a/1', {})).modRevision);
        revs.push((await s.create('/b/1', {})).modRevision);
        revs.push((await s.update('/a/1', { x: 1 }, revs[0] ?? 0)).modRevision);
        revs.push((await s.delete('/b/1')).modRevision);
        revs.push((await s.create('/c/1', {})).modRevision);
        assert.deepEqual(revs, [1, 2, 3, 4, 5]);
        assert.equal(await s.currentRevision(), 5);
      }));
    });

    describe('concurrent writers', () => {
      it('50 parallel CAS updates from one revision: exactly one wins', withStorage(async (s) => {
        const a = await s.create('/a/x', { n: 0 });
        const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => s.update('/a/x', { n: i + 1 }, a.modRevision)));
        const won = results.filter((r) => r.status === 'fulfilled');
        assert.equal(won.length, 1);
        const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Storage['update']>>>).value;
        for (const r of results) {
          if (r.status === 'rejected') {
            assert.ok(isStorageError(r.reason, 'Conflict'));
            assert.equal(r.reason.revision, winner.modRevision);
          }
        }
        assert.deepEqual(await s.get('/a/x'), winner);
        assert.equal(await s.currentRevision(), 2);
      }));

      it('50 parallel read-modify-write loops all land, none lost', withStorage(async (s) => {
        await s.create('/a/counter', { n: 0 });
        let conflicts = 0;
        const increment = async () => {
          for (;;) {
            const cur = await s.get('/a/counter');
            assert.ok(cur);
            try {
              await s.update('/a/counter', { n: (cur.value as { n: number }).n + 1 }, cur.modRevision);
              return;
            } catch (e) {
              if (!isStorageError(e, 'Conflict')) throw e;
              conflicts++;
            }
          }
        };
        await Promise.all(Array.from({ length: 50 }, increment));
        const final = await s.get('/a/counter');
        assert.deepEqual(final?.value, { n: 50 });
        assert.equal(final?.modRevision, 51);
        assert.equal(await s.currentRevision(), 51, `every success took one revision (conflicts: ${conflicts})`);
      }));
    });

    describe('list', () => {
      const seed = async (s: Storage) => {
        for (const key of ['/a/3', '/ab/1', '/a/1', '/b/1', '/a/2', '/a/', '/a/sub/1']) await s.create(key, { key });
      };

      it('lists a prefix in key order, isolated from longer siblings', withStorage(async (s) => {
        await seed(s);
        const r = await s.list('/a/');
        assert.deepEqual(r.items.map((i) => i.key), ['/a/', '/a/1', '/a/2', '/a/3', '/a/sub/1']);
        assert.deepEqual(r.items[1], { key: '/a/1', value: { key: '/a/1' }, createRevision: 3, modRevision: 3 });
        assert.deepEqual([r.revision, r.more, r.remaining], [7, false, 0]);
        assert.deepEqual((await s.list('/ab/')).items.map((i) => i.key), ['/ab/1']);
        assert.deepEqual((await s.list('/c/')).items, []);
        assert.equal((await s.list('')).items.length, 7);
      }));

      it('pages with limit and startAfter, reporting more and remaining', withStorage(async (s) => {
        await seed(s);
        const p1 = await s.list('/a/', { limit: 2 });
        assert.deepEqual(p1.items.map((i) => i.key), ['/a/', '/a/1']);
        assert.deepEqual([p1.more, p1.remaining], [true, 3]);
        const p2 = await s.list('/a/', { limit: 2, startAfter: '/a/1' });
        assert.deepEqual(p2.items.map((i) => i.key), ['/a/2', '/a/3']);
        assert.deepEqual([p2.more, p2.remaining], [true, 1]);
        const p3 = await s.list('/a/', { limit: 2, startAfter: '/a/3' });
        assert.deepEqual([p3.items.map((i) => i.key), p3.more, p3.remaining], [['/a/sub/1'], false, 0]);
        const exact = await s.list('/a/', { limit: 5 });
        assert.equal(exact.items.length, 5);
        assert.equal(exact.more, false);
        // startAfter need not be an existing key
        assert.deepEqual((await s.list('/a/', { startAfter: '/a/25' })).items.map((i) => i.key), ['/a/3', '/a/sub/1']);
        assert.deepEqual((await s.list('/a/', { startAfter: '/a/zzz' })).items, []);
      }));

      it('lists an exact snapshot at a past revision', withStorage(async (s) => {
        await s.create('/a/1', { v: 1 }); // 1
        await s.create('/a/2', { v: 1 }); // 2
        await s.create('/a/3', { v: 1 }); // 3
        const at3 = await s.list('/a/');
        await s.update('/a/1', { v: 2 }, 1); // 4
        await s.delete('/a/2'); // 5
        await s.create('/a/0', { v: 1 }); // 6
        await s.update('/a/3', { v: 2 }, 3); // 7
        await s.create('/a/2', { v: 3 }); // 8
        await s.create('/b/1', { v: 1 }); // 9

        const past = await s.list('/a/', { revision: 3 });
        assert.equal(past.revision, 3);
        assert.deepEqual(past.items, at3.items);
        const at5 = await s.list('/a/', { revision: 5 });
        assert.deepEqual(at5.items, [
          { key: '/a/1', value: { v: 2 }, createRevision: 1, modRevision: 4 },
          { key: '/a/3', value: { v: 1 }, createRevision: 3, modRevision: 3 },
        ]);
        const at7 = await s.list('/a/', { revision: 7 });
        assert.deepEqual(at7.items.map((i) => [i.key, i.modRevision]), [['/a/0', 6], ['/a/1', 4], ['/a/3', 7]]);
        assert.deepEqual((await s.list('/a/', { revision: 0 })).items, []);
        const now = await s.list('/a/', { revision: 9 });
        assert.deepEqual(now, await s.list('/a/'));

        const page1 = await s.list('/a/', { revision: 3, limit: 2 });
        assert.deepEqual(page1.items.map((i) => i.key), ['/a/1', '/a/2']);
        assert.deepEqual([page1.more, page1.remaining], [true, 1]);
        const page2 = await s.list('/a/', { revision: 3, limit: 2, startAfter: '/a/2' });
        assert.deepEqual(page2.items, [{ key: '/a/3', value: { v: 1 }, createRevision: 3, modRevision: 3 }]);
        assert.equal(page2.more, false);
      }));

      // Every page of every size from every start, at a past revision with keys created, deleted
      // and changed since (and a neighbouring prefix), against the whole list read at once.
      it('pages at a revision agree with the whole list: items, more and remaining', withStorage(async (s) => {
        const key = (i: number) => `/a/${String(i).padStart(2, '0')}`;
        for (let i = 0; i < 20; i += 2) await s.create(key(i), { i });
        await s.create('/a0', {});
        await s.create('/a/sub/x', {});
        const at = await s.currentRevision();
        for (const i of [0, 6, 18]) await s.delete(key(i));
        for (const i of [1, 7, 19, 21]) await s.create(key(i), { i });
        for (const i of [4, 12]) await s.update(key(i), { i, changed: true }, (await s.get(key(i)))!.modRevision);
        await s.create('/a/sub/y', {});
        for (const revision of [at, await s.currentRevision()]) {
          const all = (await s.list('/a/', { revision })).items;
          for (const from of [undefined, ...all.map((i) => i.key)]) {
            const rest = from === undefined ? all : all.slice(all.findIndex((i) => i.key === from) + 1);
            for (let limit = 1; limit <= all.length + 1; limit++) {
              const page = await s.list('/a/', { revision, limit, ...(from !== undefined ? { startAfter: from } : {}) });
              const what = `revision ${revision}, after ${from}, limit ${limit}`;
              assert.deepEqual(page.items, rest.slice(0, limit), what);
              assert.deepEqual([page.more, page.remaining], [rest.length > limit, Math.max(0, rest.length - limit)], what);
            }
          }
        }
      }));

      it('FutureRevision (with the current revision) above the current revision', withStorage(async (s) => {
        await s.create('/a/1', {});
        await rejectsWith(s.list('/a/', { revision: 2 }), 'FutureRevision', 1);
      }));
    });

    describe('watch', () => {
      it('replays from a revision, then goes live, with values and prevValues', withStorage(async (s) => {
        await s.create('/a/1', { v: 1 }); // 1
        await s.update('/a/1', { v: 2 }, 1); // 2
        await s.create('/a/2', { v: 1 }); // 3
        const w = s.watch('/a/', { fromRevision: 1 });
        try {
          const replayed = await take(w, 2);
          assert.deepEqual(replayed.map(brief), [
            { type: 'MODIFIED', key: '/a/1', value: { v: 2 }, prevValue: { v: 1 }, revision: 2 },
            { type: 'ADDED', key: '/a/2', value: { v: 1 }, prevValue: undefined, revision: 3 },
          ]);
          const next = take(w, 3);
          await s.delete('/a/1'); // 4
          await s.update('/a/2', { v: 2 }, 3); // 5
          await s.create('/a/3', { v: 1 }); // 6
          assert.deepEqual((await next).map(brief), [
            { type: 'DELETED', key: '/a/1', value: { v: 2 }, prevValue: { v: 2 }, revision: 4 },
            { type: 'MODIFIED', key: '/a/2', value: { v: 2 }, prevValue: { v: 1 }, revision: 5 },
            { type: 'ADDED', key: '/a/3', value: { v: 1 }, prevValue: undefined, revision: 6 },
          ]);
        } finally {
          w.close();
        }
      }));

      it('from the current revision delivers only new events', withStorage(async (s) => {
        await s.create('/a/1', { v: 1 });
        const w = s.watch('/a/', { fromRevision: await s.currentRevision() });
        try {
          const next = take(w, 1);
          await s.create('/a/2', { v: 1 });
          assert.deepEqual((await next).map((e) => [e.key, e.revision]), [['/a/2', 2]]);
        } finally {
          w.close();
        }
      }));

      it('loses and repeats nothing when writes race the switch from replay to live', withStorage(async (s) => {
        for (let i = 0; i < 20; i++) await s.create(`/a/${String(i).padStart(3, '0')}`, { i });
        const w = s.watch('/a/', { fromRevision: 0 });
        try {
          const writes = (async () => {
            for (let i = 20; i < 60; i++) await s.create(`/a/${String(i).padStart(3, '0')}`, { i });
          })();
          const events = await take(w, 60);
          await writes;
          assert.deepEqual(events.map((e) => e.revision), Array.from({ length: 60 }, (_, i) => i + 1));
        } finally {
          w.close();
        }
      }));

      it('delivers parallel writes once each, in revision order, replaying or live', withStorage(async (s) => {
        await Promise.all(Array.from({ length: 30 }, (_, i) => s.create(`/a/early-${i}`, { i })));
        const replaying = s.watch('/a/', { fromRevision: 0 });
        const live = s.watch('/a/', { fromRevision: 30 });
        try {
          const got = take(replaying, 60);
          const gotLive = take(live, 30);
          const created = await Promise.all(Array.from({ length: 30 }, (_, i) => s.create(`/a/late-${i}`, { i })));
          const events = await got;
          assert.deepEqual(events.map((e) => e.revision), Array.from({ length: 60 }, (_, i) => i + 1));
          const byRevision = new Map(created.map((kv) => [kv.modRevision, kv]));
          for (const e of [...events.slice(30), ...(await gotLive)]) {
            const kv = byRevision.get(e.revision);
            assert.deepEqual([e.type, e.key, e.value], ['ADDED', kv?.key, kv?.value]);
          }
        } finally {
          replaying.close();
          live.close();
        }
      }));

      it('filters by prefix ("/a/" sees nothing of "/ab/")', withStorage(async (s) => {
        const w = s.watch('/a/', { fromRevision: 0 });
        try {
          await s.create('/ab/1', {});
          await s.create('/b/1', {});
          await s.create('/a/1', {});
          const [e] = await take(w, 1);
          assert.equal(e?.key, '/a/1');
          assert.equal(e?.revision, 3);
          const live = take(w, 1);
          await s.update('/ab/1', { x: 1 }, 1);
          await s.delete('/a/1');
          assert.deepEqual((await live).map((x) => [x.type, x.key, x.revision]), [['DELETED', '/a/1', 5]]);
        } finally {
          w.close();
        }
      }));

      it('progress: follows writes to other prefixes, never passes an undelivered event', withStorage(async (s) => {
        const w = s.watch('/a/', { fromRevision: 0 });
        try {
          assert.equal(w.progress, 0);
          const first = take(w, 1);
          await s.create('/a/1', {});
          await first;
          await s.create('/b/1', {});
          await s.create('/b/2', {});
          await s.currentRevision();
          assert.equal(w.progress, 3, 'writes elsewhere count as delivered');
          await s.create('/a/2', {});
          await s.create('/b/3', {});
          await s.currentRevision();
          assert.equal(w.progress, 3, '/a/2 (revision 4) is not delivered yet');
          assert.equal((await take(w, 1))[0]?.revision, 4);
          assert.equal(w.progress, 5);
        } finally {
          w.close();
        }
      }));

      it('serves two concurrent watchers independently', withStorage(async (s) => {
        const w1 = s.watch('/a/', { fromRevision: 0 });
        const w2 = s.watch('', { fromRevision: 0 });
        try {
          const got1 = take(w1, 2);
          const got2 = take(w2, 3);
          await s.create('/a/1', { v: 1 });
          await s.create('/b/1', { v: 1 });
          await s.create('/a/2', { v: 1 });
          assert.deepEqual((await got1).map((e) => e.revision), [1, 3]);
          const events2 = await got2;
          assert.deepEqual(events2.map((e) => e.revision), [1, 2, 3]);
          // Watchers share pushed events, so they are frozen: no consumer can change another's.
          assert.throws(() => { (events2[0]?.value as { v: number }).v = 100; }, TypeError);
          const w3 = s.watch('/a/', { fromRevision: 0 });
          try {
            const replayed = (await take(w3, 1))[0]?.value as { v: number };
            assert.deepEqual(replayed, { v: 1 });
            assert.ok(Object.isFrozen(replayed), 'replayed events are frozen as pushed ones are');
          } finally {
            w3.close();
          }
        } finally {
          w1.close();
          w2.close();
        }
      }));

      it('close() ends the iteration, including a pending next()', withStorage(async (s) => {
        const w = s.watch('/a/', { fromRevision: 0 });
        const it = w[Symbol.asyncIterator]();
        await s.create('/a/1', {});
        assert.equal((await it.next()).done, false);
        const pending = it.next();
        w.close();
        assert.equal((await pending).done, true);
        await s.create('/a/2', {});
        assert.equal((await it.next()).done, true);
      }));

      it('breaking out of for-await closes the watch', withStorage(async (s) => {
        await s.create('/a/1', {});
        await s.create('/a/2', {});
        const w = s.watch('/a/', { fromRevision: 0 });
        for await (const e of w) {
          assert.equal(e.revision, 1);
          break;
        }
        assert.equal((await w[Symbol.asyncIterator]().next()).done, true);
      }));

      it('storage close() ends open watches', withStorage(async (s, dir, reopen) => {
        const w = s.watch('/a/', { fromRevision: 0 });
        const pending = w[Symbol.asyncIterator]().next();
        await reopen();
        assert.equal((await pending).done, true);
      }));
    });

    describe('compaction', () => {
      it('makes older snapshots and watches fail with Compacted (with the compacted revision)', withStorage(async (s) => {
        for (let i = 1; i <= 5; i++) await s.create(`/a/${i}`, { i }); // 1..5
        await s.update('/a/1', { i: 10 }, 1); // 6
        await s.compact(4);
        assert.equal(await s.compactedRevision(), 4);
        await rejectsWith(s.list('/a/', { revision: 3 }), 'Compacted', 4);
        await watchFails(s, '/a/', 3, 'Compacted', 4);

        const at5 = await s.list('/a/', { revision: 5 });
        assert.deepEqual(at5.items.map((i) => [i.key, i.value]), [['/a/1', { i: 1 }], ['/a/2', { i: 2 }], ['/a/3', { i: 3 }], ['/a/4', { i: 4 }], ['/a/5', { i: 5 }]]);
        const w = s.watch('/a/', { fromRevision: 4 });
        try {
          assert.deepEqual((await take(w, 2)).map((e) => e.revision), [5, 6]);
        } finally {
          w.close();
        }
        assert.equal((await s.list('/a/')).items.length, 5, 'compaction keeps the current state');
      }));

      it('never goes backwards and refuses the future', withStorage(async (s) => {
        for (let i = 1; i <= 4; i++) await s.create(`/a/${i}`, {});
        await s.compact(3);
        await s.compact(2);
        assert.equal(await s.compactedRevision(), 3);
        await rejectsWith(s.compact(5), 'FutureRevision', 4);
        assert.equal(await s.compactedRevision(), 3);
        await s.compact(4);
        assert.equal(await s.compactedRevision(), 4);
        await rejectsWith(s.list('/a/', { revision: 2 }), 'Compacted', 4);
      }));
    });

    describe('restart', () => {
      it('keeps objects, revisions and the event log across close and reopen', withStorage(async (s1, dir, reopen) => {
        await s1.create('/a/1', { v: 1 }); // 1
        await s1.create('/a/2', { v: 1 }); // 2
        await s1.update('/a/1', { v: 2 }, 1); // 3
        await s1.delete('/a/2'); // 4
        await s1.create('/b/1', { v: 1 }); // 5
        await s1.compact(1);
        const before = await s1.list('');

        const s2 = await reopen();
        assert.equal(await s2.currentRevision(), 5);
        assert.equal(await s2.compactedRevision(), 1);
        assert.deepEqual(await s2.list(''), before);
        assert.deepEqual(await s2.get('/a/1'), { key: '/a/1', value: { v: 2 }, createRevision: 1, modRevision: 3 });
        assert.deepEqual((await s2.list('/a/', { revision: 2 })).items.map((i) => [i.key, i.value]), [['/a/1', { v: 1 }], ['/a/2', { v: 1 }]]);
        await rejectsWith(s2.list('/a/', { revision: 0 }), 'Compacted', 1);

        const w = s2.watch('/a/', { fromRevision: 2 });
        try {
          const events = take(w, 3);
          const created = await s2.create('/a/3', { v: 1 });
          assert.equal(created.modRevision, 6, 'new writes continue the revision sequence');
          assert.deepEqual((await events).map((e) => [e.type, e.key, e.revision]), [['MODIFIED', '/a/1', 3], ['DELETED', '/a/2', 4], ['ADDED', '/a/3', 6]]);
        } finally {
          w.close();
        }
        await rejectsWith(s2.create('/a/1', {}), 'KeyExists');
        await rejectsWith(s2.update('/a/1', {}, 1), 'Conflict', 3);
      }));
    });

    describe('close', () => {
      it('refuses calls after close with Closed', withStorage(async (s) => {
        await s.create('/a/1', {});
        await s.close();
        await rejectsWith(s.get('/a/1'), 'Closed');
        await rejectsWith(s.create('/a/2', {}), 'Closed');
        await watchFails(s, '/a/', 0, 'Closed');
        await s.close();
      }));
    });
  });
}
