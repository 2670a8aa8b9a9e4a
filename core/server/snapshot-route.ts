// GET /snapshot: plat's counterpart of etcd's maintenance Snapshot RPC (`etcdctl snapshot save`). The
// API server owns the store's LMDB environment, so the copy is made here, by the owning process:
// lmdb-js's backup (mdb_env_copy2 with compaction) in one read transaction while writes go on,
// into a private directory under the store's (0700), opened, unlinked, then streamed from the open
// file, its SHA-256 appended as etcd's stream carries it. Nothing of it is left on disk once the
// answer starts, even if the client goes away.
// A non-resource URL behind the chain's authentication, audit and authorization (a `get` of
// /snapshot: cluster-admin and system:masters may), never cached, and long-running (a large store
// takes longer than --request-timeout to copy and send). Copies are made one at a time.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Koa from 'koa';
import { errors } from '../api/errors.js';
import type { Logger } from '../log.js';
import { appendSnapshotHash, SNAPSHOT_HASH_BYTES } from '../storage/snapshot-hash.js';

export const SNAPSHOT_PATH = '/snapshot';
const TEMP_PREFIX = 'snapshot-';

export interface SnapshotSource {
  /** The store's directory: copies are made in private directories under it (the same file system). */
  readonly dir: string;
  /** Writes a consistent, compacted copy of the store at `file`, which does not exist yet. */
  copy(file: string): Promise<void>;
}

/** Copies a crash left behind (the process died between the copy and its unlink). */
export function removeLeftoverSnapshots(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(TEMP_PREFIX)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** The /snapshot handler; copies from several requests wait for one another. */
export function snapshotHandler(source: SnapshotSource, log: Logger): (ctx: Koa.Context) => Promise<void> {
  let last: Promise<unknown> = Promise.resolve();
  return async (ctx) => {
    if (ctx.method !== 'GET') throw errors.noRouteForMethod();
    const turn = last.then(() => copied(source, log));
    last = turn.catch(() => undefined);
    const { handle, size } = await turn;
    const user = (ctx.state as { user?: { name: string } }).user?.name;
    log.info('sending snapshot', { user, size });
    // Written here, not by koa after the chain: the request ends (and is audited as complete, as
    // upstream's handler returns) once the whole copy is sent, as a watch's does.
    ctx.respond = false;
    const res = ctx.res;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(size + SNAPSHOT_HASH_BYTES));
    res.setHeader('Cache-Control', 'no-store');
    try {
      await pipeline(handle.createReadStream(), appendSnapshotHash(), res);
    } catch (e) {
      log.v(2).info('snapshot not sent whole', { user, err: (e as Error).message });
    }
  };
}

async function copied(source: SnapshotSource, log: Logger): Promise<{ handle: fsp.FileHandle; size: number }> {
  let dir: string | undefined;
  try {
    dir = await fsp.mkdtemp(path.join(source.dir, TEMP_PREFIX));
    const file = path.join(dir, 'snapshot.db');
    await source.copy(file);
    const handle = await fsp.open(file, 'r');
    try {
      return { handle, size: (await handle.stat()).size };
    } catch (e) {
      await handle.close();
      throw e;
    }
  } catch (e) {
    log.error('snapshot failed', { err: (e as Error).message });
    throw errors.internal(new Error(`snapshot: ${(e as Error).message}`));
  } finally {
    if (dir !== undefined) await fsp.rm(dir, { recursive: true, force: true });
  }
}
