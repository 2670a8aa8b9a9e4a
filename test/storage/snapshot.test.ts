// The store's side of backup and restore: a backup of an open store is a store of its own (status
// read offline: hash, revision, keys, size), restore makes a new data directory's store of one and
// refuses a directory that holds a store, and a restore's revision bump with history compacted
// leaves every older revision Compacted while the next writes are watched as before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openLmdbStorage, type LmdbStore } from '../../core/storage/lmdb.js';
import { readSnapshotStatus } from '../../core/storage/lmdb-snapshot.js';
import { restoreSnapshot } from '../../core/storage/snapshot-restore.js';
import { appendSnapshotHash, SNAPSHOT_HASH_BYTES } from '../../core/storage/snapshot-hash.js';
import { isStorageError, type StorageEvent } from '../../core/storage/storage.js';
import { tempDir } from '../helpers/plat.js';

describe('store snapshots', () => {
  const root = tempDir('plat-snapshot-');
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const fresh = (name: string) => path.join(root, name);

  /** A copy as GET /snapshot sends it: the store, then its SHA-256. */
  async function hashed(s: LmdbStore, file: string): Promise<void> {
    const bare = `${file}.bare`;
    await s.backup(bare, true);
    await pipeline(fs.createReadStream(bare), appendSnapshotHash(), fs.createWriteStream(file));
    fs.rmSync(bare);
  }

  async function storeWith(dir: string, keys: number): Promise<LmdbStore> {
    const s = await openLmdbStorage({ path: path.join(dir, 'store') });
    for (let i = 0; i < keys; i++) await s.create(`/k/${i}`, { i });
    return s;
  }

  it('a backup of an open store reads offline: revision, keys of every database, size, a hash of the records', async () => {
    const s = await storeWith(fresh('a'), 5);
    try {
      await s.update('/k/0', { i: 'changed' }, 1);
      await s.compact(2);
      const file = fresh('a.db');
      await s.backup(file, true);
      const st = await readSnapshotStatus(file);
      // 5 objects, events 3..6 (1 and 2 compacted away), both counters.
      assert.deepEqual({ revision: st.revision, compacted: st.compacted, totalKey: st.totalKey, totalSize: st.totalSize },
        { revision: 6, compacted: 2, totalKey: 5 + 4 + 2, totalSize: fs.statSync(file).size });
      assert.ok(!fs.existsSync(`${file}-lock`), 'the lock file LMDB made beside the copy is removed');
      const again = fresh('a2.db');
      await s.backup(again, false);
      assert.equal((await readSnapshotStatus(again)).hash, st.hash, 'same records, same hash, whatever the free pages');
      await s.create('/k/new', {});
      const later = fresh('a3.db');
      await s.backup(later, true);
      assert.notEqual((await readSnapshotStatus(later)).hash, st.hash);
      await assert.rejects(readSnapshotStatus(path.join(fresh('a'), 'store', 'data.mdb')), /the store of a running process/);
    } finally {
      await s.close();
    }
    await assert.rejects(readSnapshotStatus(fresh('missing.db')), /^Error: stat .*missing\.db: no such file or directory$/);
    fs.writeFileSync(fresh('empty.db'), '');
    await assert.rejects(readSnapshotStatus(fresh('empty.db')), /empty\.db: file is empty/);
  });

  it('restore: the snapshot becomes DIR/store, private and marked; a DIR holding a store is refused', async () => {
    const s = await storeWith(fresh('b'), 3);
    const file = fresh('b.db');
    try { await hashed(s, file); } finally { await s.close(); }
    const r = await restoreSnapshot(file, fresh('b-restored'));
    assert.deepEqual([r.snapshot.revision, r.revision, r.compacted], [3, 3, 0]);
    const store = path.join(fresh('b-restored'), 'store');
    assert.equal(fs.statSync(path.join(store, 'data.mdb')).size, fs.statSync(file).size - SNAPSHOT_HASH_BYTES, 'the digest is not part of the store');
    assert.equal(fs.statSync(store).mode & 0o777, 0o700);
    for (const f of ['data.mdb', 'data.mdb-lock', 'initialised']) assert.equal(fs.statSync(path.join(store, f)).mode & 0o777, 0o600, f);
    assert.ok(!fs.existsSync(path.join(store, 'plat.lock')));
    const opened = await openLmdbStorage({ path: store });
    try {
      assert.deepEqual((await opened.get('/k/2'))?.value, { i: 2 });
    } finally {
      await opened.close();
    }
    await assert.rejects(restoreSnapshot(file, fresh('b-restored')), { message: `data-dir "${fresh('b-restored')}" exists (${store} holds a store)` });
    // Another store's data dir: pki and kubeconfig there already, no store yet, is fine.
    fs.mkdirSync(path.join(fresh('c'), 'pki'), { recursive: true });
    assert.equal((await restoreSnapshot(file, fresh('c'))).revision, 3);
  });

  it('a digest that does not match fails status and restore; a file without one is restored only with skipHashCheck (etcdutl)', async () => {
    const s = await storeWith(fresh('h'), 3);
    const file = fresh('h.db');
    const bare = fresh('h-bare.db');
    try { await hashed(s, file); await s.backup(bare, true); } finally { await s.close(); }
    assert.equal((await readSnapshotStatus(file)).revision, 3);
    // One byte of a record changed: LMDB would serve it, the digest says no.
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf(Buffer.from('{"i":2}'));
    assert.ok(at > 0);
    bytes[at + 5] = '9'.charCodeAt(0);
    const altered = fresh('h-altered.db');
    fs.writeFileSync(altered, bytes);
    await assert.rejects(readSnapshotStatus(altered), /snapshot file integrity check failed: expected sha256 [0-9a-f]{64}, got [0-9a-f]{64}$/);
    await assert.rejects(restoreSnapshot(altered, fresh('h-r1')), /snapshot file integrity check failed/);
    assert.ok(!fs.existsSync(path.join(fresh('h-r1'), 'store', 'data.mdb')));
    await assert.rejects(restoreSnapshot(bare, fresh('h-r2')), { message: `${bare}: snapshot missing hash but --skip-hash-check=false` });
    assert.equal((await restoreSnapshot(bare, fresh('h-r3'), { skipHashCheck: true })).revision, 3);
  });

  it('restore with a bump and history compacted: older revisions are Compacted, new writes come after, watchers see them', async () => {
    const s = await storeWith(fresh('d'), 4);
    const file = fresh('d.db');
    try { await hashed(s, file); } finally { await s.close(); }
    const r = await restoreSnapshot(file, fresh('d-restored'), { bumpRevision: 1000, markCompacted: true });
    assert.deepEqual([r.revision, r.compacted], [1004, 1004]);
    const store = await openLmdbStorage({ path: path.join(fresh('d-restored'), 'store') });
    try {
      assert.equal((await store.get('/k/3'))?.modRevision, 4, 'objects keep their revisions');
      await assert.rejects(store.list('/k/', { revision: 4 }), (e) => isStorageError(e, 'Compacted'));
      const old = store.watch('/k/', { fromRevision: 4 });
      await assert.rejects(old[Symbol.asyncIterator]().next(), (e) => isStorageError(e, 'Compacted'));
      const listed = await store.list('/k/');
      assert.deepEqual([listed.revision, listed.items.length], [1004, 4]);
      const live = store.watch('/k/', { fromRevision: listed.revision });
      const it = live[Symbol.asyncIterator]();
      const created = await store.create('/k/after', {});
      assert.equal(created.modRevision, 1005);
      const { value } = await it.next() as { value: StorageEvent };
      assert.deepEqual([value.type, value.key, value.revision], ['ADDED', '/k/after', 1005]);
      live.close();
    } finally {
      await store.close();
    }
  });

  it('closing the store waits for a copy under way (LMDB\'s copy thread would read an unmapped file: SIGSEGV)', () => {
    // In a child process: without the wait it dies of the signal.
    const lmdbModule = fileURLToPath(new URL('../../core/storage/lmdb.js', import.meta.url));
    const dir = fresh('closing');
    const script = `
      import { openLmdbStorage } from ${JSON.stringify(lmdbModule)};
      import fs from 'node:fs';
      const s = await openLmdbStorage({ path: ${JSON.stringify(path.join(dir, 'store'))} });
      const big = 'x'.repeat(50000);
      await Promise.all(Array.from({ length: 400 }, (_, i) => s.create('/k/' + i, { big })));
      const results = await Promise.allSettled([s.backup(${JSON.stringify(path.join(dir, 'copy.db'))}, true), s.close()]);
      process.stdout.write(results.map((r) => r.status).join(','));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.deepEqual([r.signal, r.status, r.stdout], [null, 0, 'fulfilled,fulfilled'], r.stderr);
  });

  it('a bump in a running store: the live watchers get the next write', async () => {
    const s = await storeWith(fresh('e'), 1);
    try {
      const w = s.watch('/k/', { fromRevision: 1 });
      const it = w[Symbol.asyncIterator]();
      // Live (past the log) before the bump: it gets the next write only if it is published.
      await s.create('/k/y', {});
      assert.equal((await it.next() as { value: StorageEvent }).value.revision, 2);
      assert.equal(await s.bumpRevision(10, false), 12);
      assert.equal(await s.compactedRevision(), 0);
      await s.create('/k/x', {});
      const { value } = await it.next() as { value: StorageEvent };
      assert.equal(value.revision, 13);
      w.close();
    } finally {
      await s.close();
    }
  });
});
