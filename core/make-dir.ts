// mkdir -p that always ends. Node's own (fs.mkdir with recursive: true) spins forever at full CPU,
// deaf to SIGTERM, where mkdir of a missing child answers ENOENT although its parent exists (any
// path under /proc, some FUSE mounts): it takes the ENOENT for a missing parent, makes the parent
// (EEXIST), and tries the child again. These try each level at most twice: a child that still
// cannot be made once its parent exists is an error, said as Go's os.MkdirAll says it
// (`mkdir /x/f: not a directory`, naming the file in the way), not in Node's words.
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ERRNO_TEXT } from './go-os-error.js';

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

const statOf = (p: string) => { try { return statSync(p); } catch { return undefined; } };

/**
 * MkdirAll's error for a failed mkdir of `abs`: a file where the directory (or one of its parents)
 * should be is ENOTDIR naming that file; anything else is the mkdir's own *PathError.
 */
function mkdirAllError(abs: string, e: unknown): unknown {
  if (code(e) !== 'EEXIST' && code(e) !== 'ENOTDIR') return goPathError(e);
  for (let p = abs; ; p = path.dirname(p)) {
    const found = statOf(p);
    if (found) return found.isDirectory() ? goPathError(e) : goPathError({ code: 'ENOTDIR', syscall: 'mkdir', path: p, message: '' });
    if (path.dirname(p) === p) return goPathError(e);
  }
}

function goPathError(e: unknown): unknown {
  const { syscall, path: at } = e as NodeJS.ErrnoException;
  const reason = ERRNO_TEXT[code(e) ?? ''];
  if (!syscall || !at || !reason) return e;
  return Object.assign(new Error(`${syscall} ${at}: ${reason}`), { code: code(e), syscall, path: at });
}

/** Makes `dir` and its missing parents with `mode`; an existing directory is fine, as with mkdir -p. */
export async function makeDir(dir: string, mode = 0o777): Promise<void> {
  const abs = path.resolve(dir);
  try {
    await mkdir(abs, { mode });
    return;
  } catch (e) {
    if (code(e) === 'EEXIST' && (await stat(abs).catch(() => undefined))?.isDirectory()) return;
    const parent = path.dirname(abs);
    if (code(e) !== 'ENOENT' || parent === abs) throw mkdirAllError(abs, e);
  }
  await makeDir(path.dirname(abs), mode);
  try {
    await mkdir(abs, { mode });
  } catch (e) {
    // Another process may have made it between the two tries.
    if (code(e) === 'EEXIST' && (await stat(abs).catch(() => undefined))?.isDirectory()) return;
    throw mkdirAllError(abs, e);
  }
}

/** makeDir for the synchronous paths (start-up checks that must finish before anything else runs). */
export function makeDirSync(dir: string, mode = 0o777): void {
  const abs = path.resolve(dir);
  const isDir = () => { try { return statSync(abs).isDirectory(); } catch { return false; } };
  try {
    mkdirSync(abs, { mode });
    return;
  } catch (e) {
    if (code(e) === 'EEXIST' && isDir()) return;
    const parent = path.dirname(abs);
    if (code(e) !== 'ENOENT' || parent === abs) throw mkdirAllError(abs, e);
  }
  makeDirSync(path.dirname(abs), mode);
  try {
    mkdirSync(abs, { mode });
  } catch (e) {
    if (code(e) === 'EEXIST' && isDir()) return;
    throw mkdirAllError(abs, e);
  }
}
