// mkdir -p that always ends. Node's own (fs.mkdir with recursive: true) spins forever at full CPU,
// deaf to SIGTERM, where mkdir of a missing child answers ENOENT although its parent exists (any
// path under /proc, some FUSE mounts): it takes the ENOENT for a missing parent, makes the parent
// (EEXIST), and tries the child again. These try each level at most twice: a child that still
// cannot be made once its parent exists is an error.
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/** Makes `dir` and its missing parents with `mode`; an existing directory is fine, as with mkdir -p. */
export async function makeDir(dir: string, mode = 0o777): Promise<void> {
  const abs = path.resolve(dir);
  try {
    await mkdir(abs, { mode });
    return;
  } catch (e) {
    if (code(e) === 'EEXIST' && (await stat(abs).catch(() => undefined))?.isDirectory()) return;
    const parent = path.dirname(abs);
    if (code(e) !== 'ENOENT' || parent === abs) throw e;
  }
  await makeDir(path.dirname(abs), mode);
  try {
    await mkdir(abs, { mode });
  } catch (e) {
    // Another process may have made it between the two tries.
    if (code(e) === 'EEXIST' && (await stat(abs).catch(() => undefined))?.isDirectory()) return;
    throw e;
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
    if (code(e) !== 'ENOENT' || parent === abs) throw e;
  }
  makeDirSync(path.dirname(abs), mode);
  try {
    mkdirSync(abs, { mode });
  } catch (e) {
    if (code(e) === 'EEXIST' && isDir()) return;
    throw e;
  }
}
