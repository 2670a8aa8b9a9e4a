// One process owns a data directory at a time. LMDB itself happily shares an environment between
// processes, but plat keeps in-process state beside it (the revision fan-out to watchers), so a
// second daemon on the same directory would serve watches that miss the other's writes.
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../log.js';
import { makeDirSync } from '../make-dir.js';

export const LOCK_FILE_NAME = 'plat.lock';

export interface DirLock {
  readonly file: string;
  release(): void;
}

// Paths locked by this process: a pid check alone cannot tell "this process has it open" from "an
// earlier run that happened to have our pid" (pid 1 in every container).
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed daemon whose parent has not reaped it yet (a shell that started it in the background, a
 * supervisor slow to wait) still answers kill(pid, 0), but it has exited and holds nothing: its
 * /proc state is Z (or X). Where /proc is missing, it counts as alive.
 */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `dir` (mode 0700) if needed and takes its lock file, or throws naming the holder. */
export function acquireDirLock(dir: string, logger: Logger = silentLogger): DirLock {
  const abs = path.resolve(dir);
  makeDirSync(abs, 0o700);
  const file = path.join(abs, LOCK_FILE_NAME);
  if (heldHere.has(file)) throw new Error(`storage directory ${abs} is already open in this process`);

  // Written whole to a private name, then linked into place: link fails if the lock exists, and a
  // reader never sees a half-written pid.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.linkSync(tmp, file);
        heldHere.add(file);
        releaseAtExit();
        return { file, release: () => release(file) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const pid = readPid(file);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) {
        throw new Error(`storage directory ${abs} is in use by process ${pid} (lock file ${file})`);
      }
      logger.warn('removing stale storage lock', { file, pid: pid ?? 'unreadable' });
      fs.rmSync(file, { force: true });
    }
    throw new Error(`storage directory ${abs}: could not take lock file ${file}`);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

// A process that exits without closing its storage (a start-up that fails after opening it: the
// port is taken) leaves no lock for the next start to warn about. One listener for every lock.
let atExit = false;
function releaseAtExit(): void {
  if (atExit) return;
  atExit = true;
  process.once('exit', () => { for (const file of [...heldHere]) release(file); });
}

function release(file: string): void {
  if (!heldHere.delete(file)) return;
  // Only our own lock: if an operator removed it and another process took over, leave theirs alone.
  if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
}
