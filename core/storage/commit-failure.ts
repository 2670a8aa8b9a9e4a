// A commit LMDB could not make (a full disk, an I/O error) as a StorageError that says why. lmdb-js rejects every write of the failed batch with a bare 'Commit failed
// (see commitError for details)' and hangs the cause on `commitError`, a second promise that
// rejects too: left alone, that is an unhandled rejection, which ends the process.
import fs from 'node:fs';
import path from 'node:path';
import { ERRNO_TEXT, errnoName } from '../go-os-error.js';
import { StorageError } from './storage.js';

/** LMDB's MDB_MAP_FULL: the map could not grow (lmdb-js grows it until the file system refuses). */
const MDB_MAP_FULL = -30792;

/**
 * LMDB answers a short write with EIO ("short write, filesystem full?" in mdb_page_flush): a file
 * system this close to full is taken to be the cause.
 */
const NEARLY_FULL_BYTES = 1 << 20;

/** The write's result, or a StorageError 'CommitFailed' when its batch was not committed. */
export async function committed<T>(write: Promise<T>, dataFile: string): Promise<T> {
  try {
    return await write;
  } catch (e) {
    const pending = (e as { commitError?: unknown }).commitError;
    if (!(pending instanceof Promise)) throw e;
    // lmdb-js rejects commitError before the writes' promises when the write thread reports the
    // failure, so it has settled by now; when a later poll saw the failure first, it has not, and
    // the race only marks it handled.
    const cause = await Promise.race([pending, Promise.resolve(undefined)]).then(() => undefined, (c: unknown) => c);
    throw commitFailure(dataFile, cause);
  }
}

function commitFailure(dataFile: string, cause: unknown): StorageError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  const name = typeof code === 'number' ? errnoName(code) : undefined;
  const reason = ERRNO_TEXT[name ?? ''] ?? (cause instanceof Error ? cause.message : 'commit failed');
  const full = name === 'ENOSPC' || name === 'EDQUOT' || code === MDB_MAP_FULL || (name === 'EIO' && nearlyFull(dataFile));
  // etcd refuses a write beyond its quota with 'etcdserver: mvcc: database space exceeded'. The
  // text reaches API clients (a 500's message): it names no path of the server's.
  const message = full
    ? `database space exceeded: ${name === 'EIO' ? ERRNO_TEXT['ENOSPC'] : reason}`
    : `commit failed: ${reason}`;
  const error = new StorageError('CommitFailed', '', message);
  if (cause !== undefined) error.cause = cause;
  return error;
}

function nearlyFull(dataFile: string): boolean {
  try {
    const { bavail, bsize } = fs.statfsSync(path.dirname(dataFile));
    return bavail * bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}
