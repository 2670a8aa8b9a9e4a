// A full disk fails writes, not the server: the write that did not fit is refused with the cause
// named (kube-apiserver passes etcd's 'database space exceeded' on as a 500 Status and keeps
// serving), reads go on, nothing of the refused write is published or counted, and writes succeed
// again, without a restart, once there is room. On a real tmpfs, as the failure comes from the file
// system: LMDB reports the short write as EIO, lmdb-js hangs it on a second promise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { isStorageError, type StorageEvent } from '../../core/storage/storage.js';
import { startProcess } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js';
import { WatchStream } from '../helpers/watch-stream.js';

const mounted = mountTmpfs('8m');
const skip = typeof mounted === 'string' ? mounted : false;
const MAX_WRITES = 40;
const PAGE = 4096;
const SIZE = 8 << 20;

/** Fills the tmpfs to its last page: what start-up writes anew (its lock file) fits, nothing more. */
function fillAllButOnePage(dir: string): () => void {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  const page = Buffer.alloc(PAGE);
  let pages = 0;
  try {
    for (; pages <= SIZE / PAGE; pages++) fs.writeSync(fd, page);
    assert.fail('the tmpfs never filled');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  }
  fs.ftruncateSync(fd, (pages - 1) * PAGE);
  fs.closeSync(fd);
  return () => fs.rmSync(file);
}

/** Room taken on the tmpfs until the disk is full; removed to make room again. */
function filler(dir: string): () => void {
  const file = path.join(dir, 'filler');
  fs.writeFileSync(file, Buffer.alloc(1 << 20));
  return () => fs.rmSync(file);
}

describe('a full disk', { skip }, () => {
  const tmpfs = mounted as Tmpfs;
  after(() => { if (typeof mounted !== 'string') mounted.unmount(); });

  describe('the lmdb storage', () => {
    const dir = () => path.join(tmpfs.dir, 'storage');
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => { unhandled.push(e); };
    before(() => process.on('unhandledRejection', onUnhandled));
    after(() => {
      process.off('unhandledRejection', onUnhandled);
      fs.rmSync(dir(), { recursive: true, force: true });
    });

    it('refuses the write that does not fit, publishes nothing of it, and takes writes again once there is room', async () => {
      const makeRoom = filler(tmpfs.dir);
      const s = await openLmdbStorage({ path: dir() });
      const events: StorageEvent[] = [];
      const watch = s.watch('', { fromRevision: 0 });
      const watching = (async () => { for await (const e of watch) events.push(e); })();
      try {
        const big = 'x'.repeat(300 * 1024);
        let last = 0;
        let refused: unknown;
        for (let i = 0; i < MAX_WRITES && refused === undefined; i++) {
          try {
            last = (await s.create(`k${i}`, { big })).modRevision;
          } catch (e) {
            refused = e;
          }
        }
        assert.ok(last > 0, 'some writes fit');
        assert.ok(isStorageError(refused, 'CommitFailed'), `a write is refused as CommitFailed: ${String(refused)}`);
        assert.equal((refused as Error).message, 'database space exceeded: no space left on device');
        // lmdb-js's second promise, had it been left alone, is reported once the tick is over.
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(unhandled, []);

        assert.equal(await s.currentRevision(), last);
        assert.equal((await s.get('k0'))?.modRevision, 1);
        assert.equal((await s.list('')).revision, last);

        makeRoom();
        const next = await s.create('after', { small: true });
        assert.equal(next.modRevision, last + 1, 'the refused write took no revision');
        await s.delete('k0');
        assert.equal(await s.currentRevision(), last + 2);
      } finally {
        await s.close();
        await watching;
      }
      assert.deepEqual(events.map((e) => `${e.revision} ${e.type} ${e.key}`), [
        ...Array.from({ length: events.length - 2 }, (_, i) => `${i + 1} ADDED k${i}`),
        `${events.length - 1} ADDED after`,
        `${events.length} DELETED k0`,
      ]);
    });
  });

  describe('plat all', () => {
    it('answers the write that does not fit with a 500 Status naming the cause, and keeps serving', async () => {
      const makeRoom = filler(tmpfs.dir);
      const dataDir = path.join(tmpfs.dir, 'data');
      const plat = await startProcess({ dataDir });
      let watch: WatchStream | undefined;
      try {
        const secrets = '/api/v1/namespaces/default/secrets';
        const big = Buffer.alloc(400 * 1024, 7).toString('base64');
        let last: any;
        let refused: { status: number; json: any } | undefined;
        for (let i = 0; i < MAX_WRITES && refused === undefined; i++) {
          const r = await plat.admin.post(secrets, { metadata: { name: `s${i}` }, data: { big } });
          if (r.status === 201) last = r.json; else refused = r;
        }
        assert.ok(last, 'some secrets fit');
        assert.ok(refused, 'a secret is refused');
        // ErrorToAPIStatus for a storage error: 500, no reason, the error's own text.
        assert.deepEqual(refused.json, {
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
          message: 'database space exceeded: no space left on device',
          code: 500,
        });
        assert.equal(plat.child.exitCode, null, `plat is still running:\n${plat.output()}`);
        assert.equal((await plat.admin.get(`${secrets}/s0`)).status, 200);
        const rv = last.metadata.resourceVersion as string;
        assert.equal((await plat.admin.get(secrets)).json.metadata.resourceVersion, rv);

        watch = await WatchStream.open(plat.admin, `${secrets}?watch=true&resourceVersion=${rv}`);
        makeRoom();
        const created = await plat.admin.post(secrets, { metadata: { name: 'after' }, data: { a: 'YQ==' } });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.json.metadata.resourceVersion, String(Number(rv) + 1));
        const [event] = await watch.waitForCount(1);
        assert.deepEqual([event!.type, event!.object.metadata.name, event!.object.metadata.resourceVersion], ['ADDED', 'after', String(Number(rv) + 1)]);
        assert.equal((await plat.admin.delete(`${secrets}/s0`)).status, 200);
      } finally {
        watch?.close();
        await plat.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('plat all at start-up', () => {
    it('says which file it could not write, without a stack trace', async () => {
      const dataDir = path.join(tmpfs.dir, 'startup');
      const plat = await startProcess({ dataDir });
      await plat.stop();
      fs.rmSync(path.join(dataDir, 'admin.conf'));
      const makeRoom = fillAllButOnePage(tmpfs.dir);
      try {
        const r = runPlat(['all', '--data-dir', dataDir, '--secure-port', '0']);
        assert.equal(r.code, 1, r.stderr);
        assert.doesNotMatch(r.stderr, /^\s+at /m);
        assert.equal(r.stderr.trim().split('\n').at(-1), `plat all: --data-dir ${dataDir}: write ${path.join(dataDir, 'admin.conf')}: no space left on device`);
      } finally {
        makeRoom();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
