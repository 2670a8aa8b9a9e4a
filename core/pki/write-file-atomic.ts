// Crash-safe file replacement: readers see the old file or the new one, never a torn write, and a
// private key is never readable by others, not even for a moment (the temp file is created 0600-style
// with the final mode, before any byte is written). What was at the path before, a symlink
// included, is replaced, never written through.
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { link, open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** The checked arguments' temp file: a fresh name beside `file`, so the rename stays on one file system. */
function tempFor(file: string, data: unknown, mode: number): string {
  if (typeof file !== 'string' || file === '') throw new TypeError('path must be a non-empty string');
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw new TypeError('data must be a string or Uint8Array');
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) throw new RangeError(`invalid file mode: ${mode}`);
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** A temp file beside `file` holding `data` with exactly `mode`, synced to disk; removed if that fails. */
async function stage(file: string, data: string | Uint8Array, mode: number): Promise<string> {
  const tmp = tempFor(file, data, mode);
  const fh = await open(tmp, 'wx', mode);
  try {
    try {
      // The umask may have narrowed `mode` at creation; chmod makes the result exact.
      await fh.chmod(mode);
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  return tmp;
}

/** Makes renames in `dir` durable; not every platform lets a directory be fsynced. */
async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* best effort */
  }
}

const removeAll = (files: readonly string[]) => Promise.all(files.map((f) => unlink(f).catch(() => undefined)));

/**
 * Writes `data` to `file` through a temp file in the same directory: create with `mode`, write,
 * fsync, rename. With `exclusive`, the temp file is linked into place instead, which fails with
 * EEXIST when anything (a dangling symlink included) is already at `file`: nothing is replaced.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode: number, o: { exclusive?: boolean } = {}): Promise<void> {
  if (!o.exclusive) return writeFilesAtomic([{ file, data, mode }]);
  const tmp = await stage(file, data, mode);
  try {
    await link(tmp, file);
    await unlink(tmp);
  } catch (e) {
    await removeAll([tmp]);
    throw e;
  }
  await syncDir(path.dirname(file));
}

/**
 * Several files as one write, a private key and its certificate: all are staged first (a full disk
 * or a directory turned read-only changes nothing), then renamed into place in order. When one
 * cannot be (its path is a directory), those renamed before it are removed again, so that a key
 * listed before its certificate is never left without it; what they replaced is gone either way.
 */
export async function writeFilesAtomic(files: ReadonlyArray<{ file: string; data: string | Uint8Array; mode: number }>): Promise<void> {
  const staged: string[] = [];
  try {
    for (const { file, data, mode } of files) staged.push(await stage(file, data, mode));
  } catch (e) {
    await removeAll(staged);
    throw e;
  }
  for (const [i, { file }] of files.entries()) {
    try {
      await rename(staged[i]!, file);
    } catch (e) {
      await removeAll([...staged.slice(i), ...files.slice(0, i).map((f) => f.file)]);
      throw e;
    }
  }
  for (const dir of new Set(files.map((f) => path.dirname(f.file)))) await syncDir(dir);
}

/** writeFileAtomic for synchronous callers (the node agent's certificate store). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode: number): void {
  const tmp = tempFor(file, data, mode);
  const fd = openSync(tmp, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
}
