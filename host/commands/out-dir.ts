// --out-dir of `plat csr create` and `plat csr wait`: made 0700 when missing. A path that is
// already something other than a directory, or runs through one, is said as Go's os.MkdirAll says
// it (`mkdir FILE: not a directory`, naming the file in the way; `mkdir LINK: file exists` for a
// symbolic link to nothing), not as mkdir's EEXIST, which create would take for "the key file
// already exists".
import { lstat, stat } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import { CommandError } from './command-error.js';

/** Thrown when --out-dir cannot be made; its message is the whole reason. */
export class OutDirError extends CommandError {}

export async function makeOutDir(dir: string): Promise<void> {
  try {
    await makeDir(dir, 0o700);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new OutDirError((await inTheWay(dir)) ?? syscallErrorText(e));
    throw new OutDirError(syscallErrorText(e));
  }
}

/**
 * What MkdirAll says: it stats the path, then each parent as a prefix of the text given
 * (`a/f/sub` → `a/f`), until one exists. One that is not a directory is in the way; below one that
 * is, its Mkdir of the next prefix failed, which only a link to nothing (or a loop) explains.
 */
async function inTheWay(dir: string): Promise<string | undefined> {
  let below: string | undefined;
  for (let p = dir; ;) {
    const found = await stat(p).catch(() => undefined);
    if (found && !found.isDirectory()) return `mkdir ${p}: not a directory`;
    if (found) return below !== undefined && (await exists(below)) ? `mkdir ${below}: file exists` : undefined;
    let i = p.length;
    while (i > 0 && p[i - 1] === '/') i--;
    let j = i;
    while (j > 0 && p[j - 1] !== '/') j--;
    if (j <= 1) return (await exists(p)) ? `mkdir ${p}: file exists` : undefined;
    below = p;
    p = p.slice(0, j - 1);
  }
}

const exists = (p: string): Promise<boolean> => lstat(p).then(() => true, () => false);
