// --out-dir of `plat csr create` and `plat csr wait`: made 0700 when missing. A path that is
// already something other than a directory is said as Go's os.MkdirAll says it (`mkdir DIR: not a
// directory`), not as mkdir's EEXIST, which create would take for "the key file already exists".
import { makeDir } from '../../core/make-dir.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import { CommandError } from './ca.js';

/** Thrown when --out-dir cannot be made; its message is the whole reason. */
export class OutDirError extends CommandError {}

export async function makeOutDir(dir: string): Promise<void> {
  try {
    await makeDir(dir, 0o700);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new OutDirError(`mkdir ${dir}: not a directory`);
    throw new OutDirError(syscallErrorText(e));
  }
}
