// The store's data file holds every object, Secrets and bootstrap tokens included: it is its owner's
// alone, as etcd's bolt.Open(path, 0600). LMDB creates its files 0664 less the umask and leaves the
// mode of files it finds, so both are made (or narrowed to) exactly 0600 before LMDB opens them:
// there is no moment at which they are readable by others, whatever the umask or the mode an older
// plat left.
//
// The directory is etcd's data dir: created 0700, and an existing one of another mode is left as it
// is with etcd's warning (fileutil.TouchDirAll). An operator may have widened it on purpose, and with
// the files private it shows their names only.
import fs from 'node:fs';
import { osErrorText } from '../go-os-error.js';
import { goQuote } from '../go-quote.js';
import type { Logger } from '../log.js';

const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** Go's os.FileMode.String() of a stat mode: type and special bits in Go's order ("dalTLDpSugct?"), then rwx. */
function goFileMode(mode: number, isDir: boolean): string {
  const special = [[isDir, 'd'], [mode & 0o4000, 'u'], [mode & 0o2000, 'g'], [mode & 0o1000, 't']] as const;
  const kind = special.filter(([set]) => set).map(([, c]) => c).join('') || '-';
  return kind + [...'rwxrwxrwx'].map((c, i) => (mode & (1 << (8 - i)) ? c : '-')).join('');
}

/** etcd's CheckDirPermission warning for an existing `dir` whose mode is not 0700; nothing is changed. */
export function warnIfDirNotPrivate(dir: string, logger: Logger): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch {
    return;
  }
  // A file where the directory should be is for the mkdir to refuse, not a directory to warn of.
  if (!st.isDirectory() || (st.mode & 0o777) === PRIVATE_DIR_MODE) return;
  logger.warn('check file permission', {
    error: `directory ${goQuote(dir)} exist, but the permission is ${goQuote(goFileMode(st.mode & 0o7777, st.isDirectory()))}. ` +
      `The recommended permission is ${goQuote(goFileMode(PRIVATE_DIR_MODE, false))} to prevent possible unprivileged access to the data`,
  });
}

/**
 * Creates each missing file empty with mode 0600 and narrows an existing one to 0600 (LMDB takes an
 * empty data file for a new store and an empty lock file for one to set up). A file this process
 * does not own and may not chmod is left with a warning: it is the owner's to narrow.
 */
export function makeFilesPrivate(files: readonly string[], logger: Logger): void {
  for (const file of files) {
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE);
    } catch (e) {
      throw new Error(osErrorText('open', file, e), { cause: e });
    }
    try {
      const mode = fs.fstatSync(fd).mode & 0o7777;
      if (mode === PRIVATE_FILE_MODE) continue;
      try {
        fs.fchmodSync(fd, PRIVATE_FILE_MODE);
      } catch (e) {
        logger.warn('cannot make a store file private', { file, mode: `0${mode.toString(8)}`, error: (e as Error).message });
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}
