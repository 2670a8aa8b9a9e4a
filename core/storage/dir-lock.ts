// One process owns a data directory at a time. LMDB itself happily shares an environment between
// processes, but plat keeps in-process state beside it (the revision fan-out to watchers), so a
// second daemon on the same directory would serve watches that miss the other's writes.
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../log.js';
import { makeDirSync } from '../make-dir.js';
import { isAlive } from '../process-alive.js';

export const LOCK_FILE_NAME = 'plat.lock';

export interface DirLock {
  readonly file: string;
  release(): void;
}

// Paths locked by this process: a pid check alone cannot tell "this process has it open" from "an
// earlier run that happened to have our pid" (pid 1 in every container).
const heldHere = new Map<string, string>();

/**
 * What a lock file says of its holder: the pid, and (written since the lock learnt them) the boot
 * it ran in and its start time in clock ticks since boot (/proc/<pid>/stat field 22). A pid alone
 * outlives its process: after a reboot, or once the kernel hands the number to another process, a
 * pid check would refuse the directory for good.
 */
interface Holder { readonly pid: number; readonly boot?: string; readonly start?: string; readonly text: string }

function readHolder(file: string): Holder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pidText, boot, start] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return { pid, text, ...(boot ? { boot } : {}), ...(start ? { start } : {}) };
}

const readOr = (file: string): string | undefined => {
  try { return fs.readFileSync(file, 'utf8'); } catch { return undefined; }
};

const bootId = (): string | undefined => readOr('/proc/sys/kernel/random/boot_id')?.trim() || undefined;

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function startTime(pid: number | 'self'): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // Fields after comm (which may hold spaces and parentheses) start at the state, field 3.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function ownText(): string {
  const boot = bootId(), start = startTime('self');
  return boot && start ? `${process.pid} ${boot} ${start}\n` : `${process.pid}\n`;
}

/** Whether the process that wrote the lock still runs: the same boot, the pid alive and started when it said. */
function holds(h: Holder): boolean {
  if (h.pid === process.pid) return false;
  const boot = h.boot === undefined ? undefined : bootId();
  if (boot !== undefined && boot !== h.boot) return false;
  if (!isAlive(h.pid)) return false;
  const start = h.start === undefined ? undefined : startTime(h.pid);
  return start === undefined || start === h.start;
}

/** The pid of the live process that holds `dir`'s lock (this one included), or undefined when none does. */
export function lockHolder(dir: string): number | undefined {
  const file = path.join(path.resolve(dir), LOCK_FILE_NAME);
  if (heldHere.has(file)) return process.pid;
  const holder = readHolder(file);
  return holder && holds(holder) ? holder.pid : undefined;
}

/** Creates `dir` (mode 0700) if needed and takes its lock file, or throws naming the holder. */
export function acquireDirLock(dir: string, logger: Logger = silentLogger): DirLock {
  const abs = path.resolve(dir);
  makeDirSync(abs, 0o700);
  const file = path.join(abs, LOCK_FILE_NAME);
  if (heldHere.has(file)) throw new Error(`storage directory ${abs} is already open in this process`);

  // Written whole to a private name, then linked into place: link fails if the lock exists, and a
  // reader never sees a half-written lock.
  const text = ownText();
  const tmp = `${file}.${process.pid}.tmp`;
  const taken = `${file}.${process.pid}.stale`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(tmp, file);
        heldHere.set(file, text);
        releaseAtExit();
        return { file, release: () => release(file, text) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(file);
      if (holder && holds(holder)) {
        throw new Error(`storage directory ${abs} is in use by process ${holder.pid} (lock file ${file})`);
      }
      // Two starts may find the same stale lock. Each moves it aside first (rename is atomic, so only
      // one gets it) and removes it only if it is the lock it judged stale: one that moved the other's
      // fresh lock instead puts it back and stops, as it would have had it looked a moment later.
      try {
        fs.renameSync(file, taken);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw e;
      }
      const moved = readOr(taken);
      if (holder === undefined || moved === holder.text) {
        logger.warn('removing stale storage lock', { file, pid: holder?.pid ?? 'unreadable' });
        fs.rmSync(taken, { force: true });
        continue;
      }
      try { fs.linkSync(taken, file); } catch { /* a third start has it: its lock stands */ }
      fs.rmSync(taken, { force: true });
      const now = readHolder(file);
      throw new Error(`storage directory ${abs} is in use by process ${now?.pid ?? 'unknown'} (lock file ${file})`);
    }
    throw new Error(`storage directory ${abs}: could not take lock file ${file}`);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(taken, { force: true });
  }
}

// A process that exits without closing its storage (a start-up that fails after opening it: the
// port is taken) leaves no lock for the next start to warn about. One listener for every lock.
let atExit = false;
function releaseAtExit(): void {
  if (atExit) return;
  atExit = true;
  process.once('exit', () => { for (const [file, text] of [...heldHere]) release(file, text); });
}

function release(file: string, text: string): void {
  if (!heldHere.delete(file)) return;
  // Only our own lock: if an operator removed it and another process took over, leave theirs alone.
  if (readOr(file) === text) fs.rmSync(file, { force: true });
}
