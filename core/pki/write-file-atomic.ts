// Crash-safe file replacement: readers see the old file or the new one, never a torn write, and a
// private key is never readable by others, not even for a moment (the temp file is created 0600-style
// with the final mode, before any byte is written). What was at the path before, a symlink
// included, is replaced, never written through.
import { closeSync, fchmodSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { constants, copyFile, link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { isAlive } from '../process-alive.js';

/**
 * A fresh hidden name beside `file`, so a rename between the two stays on one file system. A long
 * base name (a CSR name of 240 characters as `<name>.key`) is replaced by its hash, so the temp name
 * stays within NAME_MAX (255 bytes) whenever `file`'s own name does: uniqueness comes from the pid
 * and the random part.
 */
const stemOf = (file: string): string => {
  const base = path.basename(file);
  return Buffer.byteLength(base) > 200 ? createHash('sha256').update(base).digest('hex').slice(0, 32) : base;
};
const beside = (file: string, suffix: string): string =>
  path.join(path.dirname(file), `.${stemOf(file)}.${process.pid}.${randomBytes(6).toString('hex')}.${suffix}`);

/**
 * Temp and kept files beside `file` that a process left when it died mid-write (a private key among
 * them): removed before the next write of `file`, when the pid in their name is no running process.
 * Best effort: a directory that cannot be read is left as it is.
 */
function sweepStale(file: string): void {
  const dir = path.dirname(file);
  let names: string[];
  try { names = readdirSync(dir); } catch { return; }
  const prefix = `.${stemOf(file)}.`;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{12}\.(tmp|old)$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || isAlive(Number(m[1]))) continue;
    try { unlinkSync(path.join(dir, name)); } catch { /* gone, or not ours to remove */ }
  }
}

/**
 * The temp file could not be made (a directory plat may not write): the error names the file the
 * caller asked for, as Go's `open /pki/ca.key: permission denied`, not the hidden temp name.
 */
function asFile(e: unknown, tmp: string, file: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (err?.path === tmp) {
    err.path = file;
    err.message = err.message.split(tmp).join(file);
  }
  return e;
}

/** The checked arguments' temp file. */
function tempFor(file: string, data: unknown, mode: number): string {
  if (typeof file !== 'string' || file === '') throw new TypeError('path must be a non-empty string');
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw new TypeError('data must be a string or Uint8Array');
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) throw new RangeError(`invalid file mode: ${mode}`);
  return beside(file, 'tmp');
}

/** A temp file beside `file` holding `data` with exactly `mode`, synced to disk; removed if that fails. */
async function stage(file: string, data: string | Uint8Array, mode: number): Promise<string> {
  const tmp = tempFor(file, data, mode);
  sweepStale(file);
  let fh;
  try {
    fh = await open(tmp, 'wx', mode);
  } catch (e) {
    throw asFile(e, tmp, file);
  }
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
    throw named(e, file);
  }
  return tmp;
}

/**
 * A write through a file handle fails without a path (`ENOSPC: no space left on device, write`):
 * the file being written is named, the one the caller asked for, not the temp file.
 */
function named(e: unknown, file: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code === 'string' && err.syscall && err.path === undefined) err.path = file;
  return e;
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
 * writeFileAtomic unless `file` already holds exactly `data` with `mode` (a regular file, not a
 * symlink): a start-up that changes nothing writes nothing, so it works on a full disk and leaves
 * the files of a data dir another process owns alone.
 */
export async function writeFileIfChanged(file: string, data: string | Uint8Array, mode: number): Promise<void> {
  try {
    const st = await lstat(file);
    if (st.isFile() && (st.mode & 0o777) === mode && Buffer.from(data).equals(await readFile(file))) return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await writeFileAtomic(file, data, mode);
}

/**
 * What is at `file` now, kept under a second name (a hard link: the same inode, mode and owner) so a
 * failed write of several files can put it back. Undefined when there is nothing a rename could
 * replace (no file, or a directory: the rename onto it fails), or when it cannot be kept: a file
 * system without hard links gets a copy (mode kept), and one that takes neither is written as
 * before, without the way back, rather than not at all.
 */
async function keep(file: string): Promise<string | undefined> {
  const kept = beside(file, 'old');
  try {
    await link(file, kept);
    return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const st = await lstat(file).catch(() => undefined);
    if (!st || !st.isFile()) return undefined;
    try {
      await copyFile(file, kept, constants.COPYFILE_EXCL);
      return kept;
    } catch {
      await unlink(kept).catch(() => undefined);
      return undefined;
    }
  }
}

/**
 * Several files as one write, a private key and its certificate: all are staged and what they
 * replace is kept aside first (a full disk or a directory turned read-only changes nothing), then
 * they are renamed into place in order. When one cannot be (its path is a directory), those renamed
 * before it are put back as they were: the files they replaced return, new ones are removed. So a
 * key is never left without its certificate, and a CA replaced with --force is not lost when the
 * replacement fails.
 */
export async function writeFilesAtomic(files: ReadonlyArray<{ file: string; data: string | Uint8Array; mode: number }>): Promise<void> {
  const staged: string[] = [];
  const kept: Array<string | undefined> = [];
  const keptFiles = () => kept.filter((k): k is string => k !== undefined);
  try {
    for (const { file, data, mode } of files) staged.push(await stage(file, data, mode));
    // One file is replaced by one rename, which succeeds or changes nothing: nothing to put back.
    if (files.length > 1) for (const { file } of files) kept.push(await keep(file));
  } catch (e) {
    await removeAll([...staged, ...keptFiles()]);
    throw e;
  }
  for (const [i, { file }] of files.entries()) {
    try {
      await rename(staged[i]!, file);
    } catch (e) {
      for (let j = i - 1; j >= 0; j--) {
        const back = kept[j];
        await (back ? rename(back, files[j]!.file) : unlink(files[j]!.file)).catch(() => undefined);
        kept[j] = undefined;
      }
      await removeAll([...staged.slice(i), ...keptFiles()]);
      throw e;
    }
  }
  await removeAll(keptFiles());
  for (const dir of new Set(files.map((f) => path.dirname(f.file)))) await syncDir(dir);
}

/** writeFileAtomic for synchronous callers (the node agent's certificate store). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode: number): void {
  const tmp = tempFor(file, data, mode);
  sweepStale(file);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', mode);
  } catch (e) {
    throw asFile(e, tmp, file);
  }
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
