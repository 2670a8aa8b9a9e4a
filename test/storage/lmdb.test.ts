import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { startCompactor } from '../../core/storage/compactor.js';
import { LOCK_FILE_NAME } from '../../core/storage/dir-lock.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { lmdbOpeners } from '../../core/storage/lmdb-openers.js';
import { refuseLiveStore } from '../../core/storage/lmdb-snapshot.js';
import { isStorageError, JsonText, type Storage, type StorageEvent } from '../../core/storage/storage.js';
import { runStorageConformance } from './conformance.js';

runStorageConformance('lmdb', { open: (dir) => openLmdbStorage({ path: dir }) });

const lmdbModule = fileURLToPath(new URL('../../core/storage/lmdb.js', import.meta.url));
const lockModule = fileURLToPath(new URL('../../core/storage/dir-lock.js', import.meta.url));
const bootId = (): string => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const startTicksOf = (pid: number): string => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-lmdb-'));
  try {
    await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function withStorage(fn: (s: Storage, dir: string) => Promise<void>, opts: { watchBufferLimit?: number; watchBufferBytes?: number } = {}): Promise<void> {
  await withDir(async (dir) => {
    const s = await openLmdbStorage({ path: dir, ...opts });
    try {
      await fn(s, dir);
    } finally {
      await s.close();
    }
  });
}

describe('lmdb storage: data directory', () => {
  it('creates the directory private (0700) and holds a pid lock until close', () => withDir(async (parent) => {
    const dir = path.join(parent, 'nested', 'store');
    const s = await openLmdbStorage({ path: dir });
    try {
      assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
      // The pid, the boot and the process's start time: a pid alone outlives its process.
      const startTicks = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[19];
      assert.equal(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'), `${process.pid} ${bootId()} ${startTicks}\n`);
    } finally {
      await s.close();
    }
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE_NAME)), false);
  }));

  it('refuses another program\'s LMDB file and leaves it as it was: its bytes, its mode, no marker', () => withDir(async (dir) => {
    const dataFile = path.join(dir, 'data.mdb');
    const other = open({ path: dataFile });
    await other.openDB({ name: 'users' }).put('alice', 1);
    await other.put('config', { x: 1 });
    await other.close();
    fs.chmodSync(dataFile, 0o644);
    const before = fs.readFileSync(dataFile);
    await assert.rejects(openLmdbStorage({ path: dir }), {
      message: `${dataFile}: not a plat store: its main database holds "config", "users", which plat never writes (point --data-dir at a directory of its own)`,
    });
    assert.deepEqual(fs.readFileSync(dataFile), before);
    assert.equal(fs.statSync(dataFile).mode & 0o777, 0o644);
    assert.equal(fs.existsSync(path.join(dir, 'initialised')), false);
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE_NAME)), false);
  }));

  it('a record damaged on disk fails the reads that meet it, naming its key; the others are served', () => withDir(async (dir) => {
    const s1 = await openLmdbStorage({ path: dir });
    await s1.create('/r/a', { v: 1 });
    await s1.create('/r/b', { v: 2 });
    await s1.close();
    const raw = open({ path: path.join(dir, 'data.mdb'), compression: false });
    await raw.openDB({ name: 'objects', encoding: 'binary' }).put('/r/b', Buffer.from('{"value":{"v":\u00012}'));
    await raw.close();
    const s2 = await openLmdbStorage({ path: dir });
    try {
      assert.deepEqual((await s2.get('/r/a'))?.value, { v: 1 });
      const corrupt = (e: unknown) => isStorageError(e, 'Corrupt') && /^unable to decode the stored object at key "\/r\/b": /.test((e as Error).message);
      await assert.rejects(s2.get('/r/b'), corrupt);
      await assert.rejects(s2.list('/r/'), corrupt);
    } finally {
      await s2.close();
    }
  }));

  it('refuses a second open in the same process', () => withStorage(async (_s, dir) => {
    await assert.rejects(openLmdbStorage({ path: dir }), (e: Error) => e.message.includes(dir) && /already open/.test(e.message));
  }));

  it('refuses a directory held by another live process, naming the path and pid', () => withDir(async (dir) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      const { openLmdbStorage } = await import(${JSON.stringify(lmdbModule)});
      const s = await openLmdbStorage({ path: ${JSON.stringify(dir)} });
      process.stdout.write('ready\\n');
      process.stdin.on('end', async () => { await s.close(); process.exit(0); });
      process.stdin.resume();
    `], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      assert.equal(chunk.toString().trim(), 'ready');
      await assert.rejects(openLmdbStorage({ path: dir }), (e: Error) => {
        assert.ok(e.message.includes(dir), e.message);
        assert.ok(e.message.includes(String(child.pid)), e.message);
        return true;
      });
    } finally {
      child.stdin.end();
      await once(child, 'exit');
    }
    const s = await openLmdbStorage({ path: dir });
    await s.close();
  }));

  it('a process that exits without closing its storage leaves no lock behind', () => withDir(async (dir) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
      const { openLmdbStorage } = await import(${JSON.stringify(lmdbModule)});
      await openLmdbStorage({ path: ${JSON.stringify(dir)} });
      process.exit(1);
    `], { stdio: ['ignore', 'ignore', 'inherit'] });
    assert.equal(r.status, 1);
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE_NAME)), false);
  }));

  it('takes over a stale lock left by a dead process', () => withDir(async (dir) => {
    const s1 = await openLmdbStorage({ path: dir });
    await s1.create('/a/1', { v: 1 });
    await s1.close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), `${dead}\n`);
    const s2 = await openLmdbStorage({ path: dir });
    try {
      assert.deepEqual((await s2.get('/a/1'))?.value, { v: 1 });
    } finally {
      await s2.close();
    }
  }));

  it('takes over a lock whose pid now belongs to another process, or to another boot', () => withDir(async (dir) => {
    // After a reboot, or once the pid is reused, the number names a live process that holds nothing.
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 50));
      const pid = other.pid!;
      const file = path.join(dir, LOCK_FILE_NAME);
      for (const stale of [`${pid} ${bootId()} 1\n`, `${pid} 00000000-0000-0000-0000-000000000000 ${startTicksOf(pid)}\n`]) {
        fs.writeFileSync(file, stale);
        const s = await openLmdbStorage({ path: dir });
        await s.close();
      }
      // Its own boot and start time: the directory is its.
      fs.writeFileSync(file, `${pid} ${bootId()} ${startTicksOf(pid)}\n`);
      await assert.rejects(openLmdbStorage({ path: dir }), new RegExp(`is in use by process ${pid}`));
      // A lock of the old form, a pid alone, is judged by the pid.
      fs.writeFileSync(file, `${pid}\n`);
      await assert.rejects(openLmdbStorage({ path: dir }), new RegExp(`is in use by process ${pid}`));
    } finally {
      other.kill();
    }
  }));

  it('two starts that find the same stale lock: one takes the directory, the other is refused', () => withDir(async (dir) => {
    // Each child waits for the same instant, then takes the lock; before the stale lock was moved
    // aside and checked, the second could remove the first's fresh lock and take it too.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    for (let round = 0; round < 8; round++) {
      fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), `${dead}\n`);
      const at = Date.now() + 400;
      // Each child holds what it took until both have answered (its stdin closed): on a loaded
      // machine one that exited early would leave a stale lock the other may rightly take.
      const children: ChildProcess[] = [];
      const child = () => new Promise<string>((resolve) => {
        const c = spawn(process.execPath, ['--input-type=module', '-e', `
          const { acquireDirLock } = await import(${JSON.stringify(lockModule)});
          while (Date.now() < ${at});
          let said;
          try { acquireDirLock(${JSON.stringify(dir)}); said = 'took'; } catch (e) { said = /in use by process/.test(e.message) ? 'refused' : e.message; }
          process.stdout.write(said);
          process.stdin.on('end', () => process.exit(0)).resume();
        `], { stdio: ['pipe', 'pipe', 'inherit'] });
        children.push(c);
        let out = '';
        c.stdout.on('data', (d: Buffer) => { out += d.toString(); resolve(out); });
        c.on('exit', () => resolve(out));
      });
      const said = (await Promise.all([child(), child()])).sort();
      await Promise.all(children.map((c) => {
        if (c.exitCode !== null || c.signalCode !== null) return undefined;
        const gone = once(c, 'exit');
        c.stdin!.end();
        return gone;
      }));
      assert.deepEqual(said, ['refused', 'took'], `round ${round}`);
    }
  }));

  it('takes over a lock whose holder has exited but is not reaped yet (a zombie)', () => withDir(async (dir) => {
    // The shell's background child exits after `exec sleep` has replaced the shell, which never reaps
    // it. (A child that exits at once could be reaped by the shell before its exec: seen once in CI.)
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [line] = await once(parent.stdout!, 'data') as [Buffer];
      const zombie = Number(line.toString().trim());
      for (let i = 0; i < 250 && !/\) Z /.test(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')); i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8'), /\) Z /, 'the child is a zombie');
      fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), `${zombie}\n`);
      const s = await openLmdbStorage({ path: dir });
      await s.close();
      // A live holder is still refused.
      fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), `${parent.pid}\n`);
      await assert.rejects(openLmdbStorage({ path: dir }), new RegExp(`is in use by process ${parent.pid}`));
    } finally {
      parent.kill();
    }
  }));

  it('refuses a store another process has open even when its lock file was removed; takes it once that process is gone', () => withDir(async (dir) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      const { openLmdbStorage } = await import(${JSON.stringify(lmdbModule)});
      await openLmdbStorage({ path: ${JSON.stringify(dir)} });
      console.log('open');
      setTimeout(() => {}, 60000);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await once(child.stdout!, 'data');
      fs.rmSync(path.join(dir, LOCK_FILE_NAME));
      await assert.rejects(openLmdbStorage({ path: dir }),
        { message: `storage directory ${dir} is in use by process ${child.pid}: it has ${dir}/data.mdb open without the lock file ${dir}/${LOCK_FILE_NAME}` });
      assert.equal(fs.existsSync(path.join(dir, LOCK_FILE_NAME)), false, 'the refused start leaves no lock of its own');
      assert.throws(() => refuseLiveStore(path.join(dir, 'data.mdb')), new RegExp(`the store of a running process \\(${child.pid} holds`));
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    const s = await openLmdbStorage({ path: dir });
    await s.close();
  }));

  it('reads the kernel lock table: other pids on the lock file\'s device and inode, waiters and other files skipped', () => withDir(async (dir) => {
    const file = path.join(dir, 'data.mdb-lock');
    fs.writeFileSync(file, '');
    const st = fs.statSync(file, { bigint: true });
    const major = ((st.dev >> 8n) & 0xfffn) | ((st.dev >> 32n) & ~0xfffn);
    const minor = (st.dev & 0xffn) | ((st.dev >> 12n) & ~0xffn);
    const id = `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${st.ino}`;
    const table = path.join(dir, 'locks');
    fs.writeFileSync(table, [
      `1: POSIX  ADVISORY  WRITE 4242 ${id} 4242 4242`,
      `2: POSIX  ADVISORY  READ 4242 ${id} 0 0`,
      `3: -> POSIX  ADVISORY  WRITE 5151 ${id} 0 0`,
      `4: POSIX  ADVISORY  READ ${process.pid} ${id} 0 0`,
      `5: POSIX  ADVISORY  READ 6161 ${id.replace(/:\d+$/, `:${st.ino + 1n}`)} 0 0`,
      `6: FLOCK  ADVISORY  WRITE 7171 ${id} 0 EOF`,
      `7: POSIX  ADVISORY  READ 0 ${id} 0 0`,
      '',
    ].join('\n'));
    assert.deepEqual(lmdbOpeners(file, table), [4242, 0]);
    assert.deepEqual(lmdbOpeners(path.join(dir, 'absent'), table), []);
    assert.deepEqual(lmdbOpeners(file, path.join(dir, 'no-table')), []);
  }));
});

// Writes encode each value once and put the text as raw bytes; these prove the bytes are what
// lmdb-js's 'json' encoding writes and reads, both ways, so data directories stay compatible.
describe('lmdb storage: record format', () => {
  const tricky = {
    s: ',"createRevision":1,"modRevision":2}', nested: { createRevision: 5, modRevision: 6, value: [1] },
    u: 'é \u2028 \ud83d\ude00', n: null, list: [{ createRevision: 7 }],
  };
  const rawDbs = (dir: string) => {
    const root = open({ path: path.join(dir, 'data.mdb'), compression: false });
    return {
      root,
      objects: root.openDB<unknown, string>({ name: 'objects', encoding: 'json' }),
      events: root.openDB<unknown, number>({ name: 'events', encoding: 'json' }),
      meta: root.openDB<number, string>({ name: 'meta', encoding: 'json' }),
    };
  };

  it('writes records the json encoding reads back exactly', () => withDir(async (dir) => {
    const s = await openLmdbStorage({ path: dir });
    await s.create('/a/x', tricky);
    await s.update('/a/x', { ...tricky, s: 'two' }, 1);
    await s.create('/a/y', { y: 1 });
    await s.delete('/a/y', 3);
    await s.close();
    const raw = rawDbs(dir);
    try {
      assert.deepEqual(raw.objects.get('/a/x'), { value: { ...tricky, s: 'two' }, createRevision: 1, modRevision: 2 });
      assert.equal(raw.objects.get('/a/y'), undefined);
      assert.deepEqual(raw.events.get(1), { type: 'ADDED', key: '/a/x', value: tricky, createRevision: 1 });
      assert.deepEqual(raw.events.get(2), {
        type: 'MODIFIED', key: '/a/x', value: { ...tricky, s: 'two' }, prevValue: tricky, createRevision: 1, prevModRevision: 1,
      });
      assert.deepEqual(raw.events.get(4), { type: 'DELETED', key: '/a/y', value: { y: 1 }, createRevision: 3, prevModRevision: 3 });
      assert.equal(raw.meta.get('currentRevision'), 4);
    } finally {
      await raw.root.close();
    }
  }));

  it('updates and deletes records written by the json encoding, in any key order', () => withDir(async (dir) => {
    const raw = rawDbs(dir);
    await raw.objects.put('/a/plain', { value: tricky, createRevision: 1, modRevision: 1 });
    await raw.objects.put('/a/reordered', { modRevision: 2, createRevision: 2, value: { r: tricky } });
    await raw.meta.put('currentRevision', 2);
    await raw.root.close();
    const s = await openLmdbStorage({ path: dir });
    try {
      const w = s.watch('/a/', { fromRevision: 2 })[Symbol.asyncIterator]();
      await assert.rejects(s.update('/a/plain', {}, 2), (e: unknown) => isStorageError(e, 'Conflict') && e.revision === 1);
      const updated = await s.update('/a/plain', { v: 2 }, 1);
      assert.deepEqual(updated, { key: '/a/plain', value: { v: 2 }, createRevision: 1, modRevision: 3 });
      const deleted = await s.delete('/a/reordered', 2);
      assert.deepEqual(deleted, { key: '/a/reordered', value: { r: tricky }, createRevision: 2, modRevision: 4 });
      assert.deepEqual((await w.next()).value, { type: 'MODIFIED', key: '/a/plain', value: { v: 2 }, prevValue: tricky, revision: 3 });
      assert.deepEqual((await w.next()).value, { type: 'DELETED', key: '/a/reordered', value: { r: tricky }, prevValue: { r: tricky }, revision: 4 });
      const replay = s.watch('/a/', { fromRevision: 2 })[Symbol.asyncIterator]();
      assert.deepEqual((await replay.next()).value, { type: 'MODIFIED', key: '/a/plain', value: { v: 2 }, prevValue: tricky, revision: 3 });
      assert.deepEqual((await s.get('/a/plain'))?.value, { v: 2 });
    } finally {
      await s.close();
    }
  }));

  it('answers a write with its watch event\'s value, decoded once and frozen, and the written value as stored', () => withStorage(async (s) => {
    // Live, not replayed from the log: the watch has caught up before the writes.
    const w = s.watch('/a/', { fromRevision: 0 })[Symbol.asyncIterator]();
    const first = w.next();
    await new Promise((resolve) => setImmediate(resolve));
    const created = await s.create('/a/c', { list: [1], at: 'x' });
    const updated = await s.update('/a/c', new JsonText('{"list":[3],"at":"y"}'), 1);
    const deleted = await s.delete('/a/c');
    const events = [(await first).value, (await w.next()).value, (await w.next()).value] as StorageEvent[];
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
    [created, updated, deleted].forEach((kv, i) => {
      assert.equal(kv.value, events[i]!.value, `write ${i}: one object for the answer and the event`);
      assert.ok(Object.isFrozen(kv.value) && Object.isFrozen((kv.value as { list: unknown }).list));
    });
    assert.deepEqual([created.value, updated.value, deleted.value], [{ list: [1], at: 'x' }, { list: [3], at: 'y' }, { list: [3], at: 'y' }]);
    assert.throws(() => (updated.value as { list: number[] }).list.push(4), TypeError);
    await s.create('/a/c', { list: [5] });
    const got = await s.get('/a/c');
    (got!.value as { list: number[] }).list.push(6);
    assert.deepEqual((await s.get('/a/c'))?.value, { list: [5] }, 'get hands out a copy of its own');
  }));
});

describe('lmdb storage: engine choices', () => {
  it('serves a snapshot list at exactly the compacted revision', () => withStorage(async (s) => {
    for (let i = 1; i <= 4; i++) await s.create(`/a/${i}`, { i });
    await s.update('/a/1', { i: 10 }, 1);
    await s.compact(3);
    const at3 = await s.list('/a/', { revision: 3 });
    assert.deepEqual(at3.items.map((i) => [i.key, i.value]), [['/a/1', { i: 1 }], ['/a/2', { i: 2 }], ['/a/3', { i: 3 }]]);
  }));

  it('reports a Compacted watch on the first next(), not from watch()', () => withStorage(async (s) => {
    for (let i = 1; i <= 3; i++) await s.create(`/a/${i}`, {});
    await s.compact(2);
    const w = s.watch('/a/', { fromRevision: 1 });
    await assert.rejects(w[Symbol.asyncIterator]().next(), (e: unknown) => isStorageError(e, 'Compacted') && e.revision === 2);
    assert.equal((await w[Symbol.asyncIterator]().next()).done, true, 'a failed watch is over');
  }));

  it('fails a replay that compaction overtakes', () => withStorage(async (s) => {
    for (let i = 1; i <= 600; i++) await s.create(`/a/${i}`, {});
    const it = s.watch('/a/', { fromRevision: 0 })[Symbol.asyncIterator]();
    assert.equal((await it.next()).value?.revision, 1);
    await s.compact(500);
    const revisions: number[] = [];
    await assert.rejects(async () => {
      for (;;) revisions.push((await it.next()).value?.revision ?? -1);
    }, (e: unknown) => isStorageError(e, 'Compacted'));
    assert.deepEqual(revisions, Array.from({ length: revisions.length }, (_, i) => i + 2), 'what was delivered has no gap');
  }));

  it('replays across log pages, filtering by prefix', () => withStorage(async (s) => {
    for (let i = 0; i < 700; i++) await s.create(`/${i % 3 === 0 ? 'a' : 'b'}/${i}`, { i });
    const w = s.watch('/a/', { fromRevision: 0 });
    const revisions: number[] = [];
    for await (const e of w) {
      revisions.push(e.revision);
      if (revisions.length === 234) break;
    }
    assert.deepEqual(revisions, Array.from({ length: 234 }, (_, i) => 3 * i + 1));
  }));

  it('terminates a live watcher that falls more than watchBufferLimit events behind', () => withStorage(async (s) => {
    const w = s.watch('/a/', { fromRevision: 0 });
    const it = w[Symbol.asyncIterator]();
    const first = it.next();
    await s.create('/a/0', {});
    assert.equal((await first).value?.revision, 1);
    for (let i = 1; i <= 5; i++) await s.create(`/a/${i}`, {});
    await s.create('/b/1', {}); // other prefixes do not count
    // Five undelivered events fit the bound: the watch is still healthy.
    assert.equal((await it.next()).value?.revision, 2);
    for (let i = 6; i <= 10; i++) await s.create(`/a/${i}`, {});
    await assert.rejects(it.next(), (e: unknown) => isStorageError(e, 'Unresponsive') && /fell more than 5 events behind/.test(e.message));
    assert.equal((await it.next()).done, true);
    // Writers were never held up, and a new watch resumes from the log.
    assert.equal(await s.currentRevision(), 12);
    const resumed = s.watch('/a/', { fromRevision: 2 });
    const got: number[] = [];
    for await (const e of resumed) if (got.push(e.revision) === 9) break;
    assert.deepEqual(got, [3, 4, 5, 6, 8, 9, 10, 11, 12]);
  }, { watchBufferLimit: 5 }));

  it('terminates a live watcher that falls more than watchBufferBytes of events behind, counting value and previous state', () => withStorage(async (s) => {
    const big = (n: number) => ({ data: 'x'.repeat(4000), n });
    const w = s.watch('/a/', { fromRevision: 0 });
    const it = w[Symbol.asyncIterator]();
    const first = it.next();
    await s.create('/a/k', big(0));
    assert.equal((await first).value?.revision, 1);
    // Each update holds its value and the state before it: ~8 KB; two fit in 20,000 bytes.
    const kv1 = await s.update('/a/k', big(1), 1);
    const kv2 = await s.update('/a/k', big(2), kv1.modRevision);
    assert.equal((await it.next()).value?.revision, 2, 'still healthy, and a delivered event frees its share');
    const kv3 = await s.update('/a/k', big(3), kv2.modRevision);
    assert.equal((await it.next()).value?.revision, 3);
    assert.equal((await it.next()).value?.revision, 4);
    let rev = kv3.modRevision;
    for (let i = 4; i <= 6; i++) rev = (await s.update('/a/k', big(i), rev)).modRevision;
    await assert.rejects(it.next(), (e: unknown) => isStorageError(e, 'Unresponsive') && /fell more than 20000 bytes of events behind/.test(e.message));
    assert.equal((await it.next()).done, true);
    await assert.rejects(openLmdbStorage({ path: '/nonexistent', watchBufferBytes: 0 }), /watchBufferBytes must be positive/);
  }, { watchBufferBytes: 20_000 }));

  it('rejects bad arguments with TypeError and RangeError', () => withStorage(async (s) => {
    assert.throws(() => s.watch('/a/', { fromRevision: -1 }), RangeError);
    await assert.rejects(s.list('/a/', { limit: -1 }), RangeError);
    await assert.rejects(s.update('/a/1', {}, 1.5), RangeError);
    await assert.rejects(s.create(7 as unknown as string, {}), TypeError);
    await assert.rejects(s.create('/a/1', undefined), TypeError);
    await assert.rejects(s.compact(-1), RangeError);
  }));
});

/** A timer the test fires by hand; `fire()` resolves once the compactor has re-armed. */
function manualTimer() {
  let pending: (() => void) | undefined;
  let armed: (() => void) | undefined;
  const cleared: unknown[] = [];
  let next = 0;
  return {
    cleared,
    get isArmed() { return pending !== undefined; },
    setTimer: (fn: () => void, ms: number) => {
      assert.equal(ms, 60_000);
      pending = fn;
      armed?.();
      return ++next;
    },
    clearTimer: (handle: unknown) => {
      cleared.push(handle);
      pending = undefined;
    },
    async fire() {
      const fn = pending;
      assert.ok(fn, 'timer not armed');
      pending = undefined;
      const rearmed = new Promise<void>((resolve) => { armed = resolve; });
      fn();
      await rearmed;
    },
  };
}

describe('lmdb storage: compactor', () => {
  it('compacts each tick to the revision observed at the previous tick', () => withStorage(async (s) => {
    const timer = manualTimer();
    for (let i = 1; i <= 3; i++) await s.create(`/a/${i}`, {});
    const compactor = startCompactor(s, 60_000, timer);
    assert.ok(timer.isArmed);

    await timer.fire(); // observes 3, nothing to compact yet
    assert.equal(await s.compactedRevision(), 0);
    await s.create('/a/4', {});
    await s.create('/a/5', {});
    await timer.fire(); // compacts to 3, observes 5
    assert.equal(await s.compactedRevision(), 3);
    assert.equal((await s.list('/a/', { revision: 3 })).items.length, 3, 'one interval of history is kept');
    await timer.fire(); // compacts to 5
    assert.equal(await s.compactedRevision(), 5);
    await timer.fire(); // nothing new: stays at 5
    assert.equal(await s.compactedRevision(), 5);

    compactor.stop();
    assert.equal(timer.isArmed, false);
    assert.equal(timer.cleared.length, 1);
  }));

  it('with the real timer, an interval longer than a Node timer holds (about 24.8 days) is waited out, not 1 ms', async () => {
    let ticks = 0;
    const storage = { engine: 'counting', currentRevision: async () => { ticks++; return 1; }, compact: async () => {} } as unknown as Storage;
    const warnings: Error[] = [];
    const onWarning = (w: Error) => { warnings.push(w); };
    process.on('warning', onWarning);
    const compactor = startCompactor(storage, 1000 * 3600_000);
    try {
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      compactor.stop();
      process.removeListener('warning', onWarning);
    }
    assert.equal(ticks, 0, 'no compaction tick yet');
    assert.deepEqual(warnings.filter((w) => w.name === 'TimeoutOverflowWarning'), []);
  });

  it('is disabled by a zero interval', () => withStorage(async (s) => {
    const timer = manualTimer();
    startCompactor(s, 0, timer).stop();
    assert.equal(timer.isArmed, false);
    assert.throws(() => startCompactor(s, -1, timer), RangeError);
  }));
});
