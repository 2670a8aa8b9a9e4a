// --out-dir of `plat csr create` and `plat csr wait`: made 0700 when missing. A path that is
// already something other than a directory, or runs through one, is said as Go's os.MkdirAll says
// it (`mkdir FILE: not a directory`, naming the file in the way), not as mkdir's EEXIST, which
// create would take for "the key file already exists".
import { stat } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import { CommandError } from './ca.js';

/** Thrown when --out-dir cannot be made; its message is the whole reason. */
export class OutDirError extends CommandError {}

export async function makeOutDir(dir: string): Promise<void> {
  try {
    await makeDir(dir, 0o700);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new OutDirError(`mkdir ${await inTheWay(dir)}: not a directory`);
    throw new OutDirError(syscallErrorText(e));
  }
}

/**
 * The path MkdirAll names: it stats the path, then each parent as a prefix of the text given
 * (`a/f/sub` → `a/f`), until one exists; that one is not a directory.
 */
async function inTheWay(dir: string): Promise<string> {
  for (let p = dir; ;) {
    if (await stat(p).then(() => true, () => false)) return p;
    let i = p.length;
    while (i > 0 && p[i - 1] === '/') i--;
    let j = i;
    while (j > 0 && p[j - 1] !== '/') j--;
    if (j <= 1) return p;
    p = p.slice(0, j - 1);
  }
}
