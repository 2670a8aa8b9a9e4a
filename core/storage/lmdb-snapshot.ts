// A snapshot file (what GET /snapshot streams, `plat snapshot save` writes) read offline, as
// `etcdutl snapshot status` reads one: its hash, revision, total keys and size. The file is a private
// copy, so it is mapped read-only in the reading process; a file inside a data directory a live
// process holds is refused (reading a store under its daemon is how torn copies and damaged reader
// tables come about).
import fs from 'node:fs';
import path from 'node:path';
import { osErrorText } from '../go-os-error.js';
import { crc32cUpdate } from './crc32c.js';
import { lockHolder } from './dir-lock.js';
import { lmdbOpeners } from './lmdb-openers.js';
import { checkStoreKeys, snapshotFileProblem, STORE_DATABASES } from './lmdb-file.js';
import { loadLmdb, META_KEYS } from './lmdb.js';
import { checkSnapshotHash } from './snapshot-hash.js';

export interface SnapshotStatus {
  /** CRC-32C over every database's name and its keys and values, in key order (etcd's hash is over its buckets so). */
  readonly hash: number;
  /** The store's current revision: the resourceVersion of its last write. */
  readonly revision: number;
  /** The revision history is compacted to. */
  readonly compacted: number;
  /** Records in all the store's databases (objects, the event log, the counters), as etcd counts every bucket's keys. */
  readonly totalKey: number;
  /** The file's size in bytes. */
  readonly totalSize: number;
}

/** Throws when `file` lies in a data directory a live process holds: it is that process's, not a copy. */
export function refuseLiveStore(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const pid = lockHolder(dir) ?? lmdbOpeners(`${path.resolve(file)}-lock`)[0];
  if (pid !== undefined) {
    throw new Error(`${file}: the store of a running process (${pid} holds ${dir}); take a snapshot through its API server with 'plat snapshot save'`);
  }
}

/** Reads a snapshot file; throws naming the file when it is no plat store LMDB can open. */
export async function readSnapshotStatus(file: string, o: { verifyHash?: boolean } = {}): Promise<SnapshotStatus> {
  refuseLiveStore(file);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (e) {
    throw new Error(osErrorText('stat', file, e), { cause: e });
  }
  const problem = snapshotFileProblem(file);
  if (problem !== undefined) throw new Error(`${file}: ${problem}`);
  // A digest that does not match is a damaged or altered file, whatever LMDB would make of it.
  await checkSnapshotHash(file, o.verifyHash ?? true);
  const lmdb = await loadLmdb();
  // LMDB makes a lock file beside the file it maps, read-only or not; one it made here goes again.
  const lockFile = `${file}-lock`;
  const hadLock = fs.existsSync(lockFile);
  const root = lmdb.open({ path: file, noSubdir: true, readOnly: true, compression: false });
  try {
    checkStoreKeys(file, root.getKeys());
    let hash = 0;
    let totalKey = 0;
    for (const name of STORE_DATABASES) {
      const db = root.openDB<Buffer, Buffer>({ name, encoding: 'binary', keyEncoding: 'binary' });
      hash = crc32cUpdate(hash, Buffer.from(name));
      for (const { key, value } of db.getRange({})) {
        hash = crc32cUpdate(crc32cUpdate(hash, key), value);
        totalKey++;
      }
    }
    const meta = root.openDB<number, string>({ name: 'meta', encoding: 'json' });
    return { hash, revision: meta.get(META_KEYS.current) ?? 0, compacted: meta.get(META_KEYS.compacted) ?? 0, totalKey, totalSize: size };
  } finally {
    await root.close();
    if (!hadLock) fs.rmSync(lockFile, { force: true });
  }
}
