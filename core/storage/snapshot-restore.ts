// `plat snapshot restore FILE --data-dir NEW`, etcdutl snapshot restore's counterpart: the snapshot
// becomes NEW/store/data.mdb (0700 directory, 0600 files, the initialised marker), opened once
// through the engine, which checks it and, with --bump-revision N --mark-compacted, moves the
// revision counter N past the snapshot's and compacts history up to there. Clients that saw
// resourceVersions after the snapshot was taken then get 410 Gone for them and list again, instead of
// watching from a revision the restored store hands out a second time.
import fs from 'node:fs';
import path from 'node:path';
import { goQuote } from '../go-quote.js';
import { osErrorText } from '../go-os-error.js';
import { silentLogger, type Logger } from '../log.js';
import { makeDirSync } from '../make-dir.js';
import { INITIALISED_MARKER } from './lmdb-file.js';
import { openLmdbStorage } from './lmdb.js';
import { readSnapshotStatus, type SnapshotStatus } from './lmdb-snapshot.js';
import { checkSnapshotHash } from './snapshot-hash.js';

/** The store's directory under --data-dir, and its data file. */
export const STORE_DIR = 'store';
export const STORE_FILE = 'data.mdb';

export interface RestoreOptions {
  /** --bump-revision: how far past the snapshot's revision the counter moves (0: not at all). */
  readonly bumpRevision?: number;
  /** --mark-compacted: history up to the bumped revision is compacted. */
  readonly markCompacted?: boolean;
  /** --skip-hash-check: restore a file without its digest (a copy not made by `plat snapshot save`), or ignore a digest that does not match. */
  readonly skipHashCheck?: boolean;
  readonly logger?: Logger;
}

export interface Restored {
  /** The snapshot as read before the copy. */
  readonly snapshot: SnapshotStatus;
  readonly store: string;
  readonly revision: number;
  readonly compacted: number;
}

/** Whether `store` holds a store already: a data file with bytes in it, or the marker of one that had. */
function holdsStore(store: string): boolean {
  if (fs.existsSync(path.join(store, INITIALISED_MARKER))) return true;
  try {
    return fs.statSync(path.join(store, STORE_FILE)).size > 0;
  } catch {
    return false;
  }
}

export async function restoreSnapshot(file: string, dataDir: string, options: RestoreOptions = {}): Promise<Restored> {
  const bump = options.bumpRevision ?? 0;
  if (!Number.isSafeInteger(bump) || bump < 0) throw new RangeError('bumpRevision must be a non-negative integer');
  const store = path.join(path.resolve(dataDir), STORE_DIR);
  // etcdutl's words (it refuses any existing --data-dir; plat's may hold pki/ and admin.conf already).
  if (holdsStore(store)) throw new Error(`data-dir ${goQuote(dataDir)} exists (${store} holds a store)`);
  const skip = options.skipHashCheck === true;
  const { hashed, dataSize } = await checkSnapshotHash(file, !skip);
  // etcdutl's words.
  if (!hashed && !skip) throw new Error(`${file}: snapshot missing hash but --skip-hash-check=false`);
  const snapshot = await readSnapshotStatus(file, { verifyHash: false });
  makeDirSync(path.resolve(dataDir), 0o700);
  makeDirSync(store, 0o700);
  const target = path.join(store, STORE_FILE);
  // Copied under a private name, synced, then renamed: a restore cut short leaves no data file
  // that a start would take for the store.
  const part = `${target}.restore`;
  try {
    fs.copyFileSync(file, part);
    const fd = fs.openSync(part, 'r+');
    try {
      fs.fchmodSync(fd, 0o600);
      fs.ftruncateSync(fd, dataSize);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(part, target);
  } catch (e) {
    fs.rmSync(part, { force: true });
    throw new Error(osErrorText('copy', target, e), { cause: e });
  }
  const storage = await openLmdbStorage({ path: store, logger: options.logger ?? silentLogger });
  try {
    if (bump > 0) await storage.bumpRevision(bump, options.markCompacted === true);
    return { snapshot, store, revision: await storage.currentRevision(), compacted: await storage.compactedRevision() };
  } finally {
    await storage.close();
  }
}
