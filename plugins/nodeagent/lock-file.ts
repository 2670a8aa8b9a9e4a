// --lock-file and --exit-on-lock-contention. Upstream takes an flock(2) on the file (blocking until
// it is free) and, with --exit-on-lock-contention, watches the file with inotify and exits when
// another process opens it (the hand-over used when a new node agent replaces a running one). Node
// has no flock, so plat's lock is an exclusively created file holding the owner's pid (mode 0600):
// a file whose pid is no longer alive is stale and taken over; a waiting plat process appends a
// line to the file, which is what a holder with --exit-on-lock-contention watches for (as would
// anything else that writes to or touches the file). The holder removes the file when it stops.
import { closeSync, fstatSync, openSync, readFileSync, unlinkSync, watch, writeSync, type FSWatcher } from 'node:fs';
import { sleepUnlessAborted } from '../../core/abort-wait.js';
import type { Logger } from '../../core/log.js';

export interface LockOptions {
  readonly path: string;
  readonly logger: Logger;
  /** Aborting stops the wait for a held lock. */
  readonly signal: AbortSignal;
  /** How often a held lock is looked at again (tests shorten it). */
  readonly pollMs?: number;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(path, 'utf8').split('\n')[0] ?? '', 10);
  } catch {
    return undefined;
  }
}

export class LockFile {
  #watcher: FSWatcher | undefined;
  private constructor(readonly path: string) {}

  /** Takes the lock, waiting while a live process holds it; rejects when `signal` aborts first. */
  static async acquire(o: LockOptions): Promise<LockFile> {
    let announced = false;
    for (;;) {
      try {
        const fd = openSync(o.path, 'wx', 0o600);
        try { writeSync(fd, `${process.pid}\n`); } finally { closeSync(fd); }
        return new LockFile(o.path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = holderOf(o.path);
      if (holder !== undefined && (!alive(holder) || holder === process.pid)) {
        o.logger.info('Removing a stale lock file', { path: o.path, pid: holder });
        try { unlinkSync(o.path); } catch { /* another contender took it first */ }
        continue;
      }
      if (!announced) {
        // The contention a holder started with --exit-on-lock-contention waits for.
        // Opened without O_CREAT: a lock released meanwhile must not be recreated with our pid.
        try {
          const fd = openSync(o.path, 'r+');
          try { writeSync(fd, `${process.pid} waiting\n`, fstatSync(fd).size); } finally { closeSync(fd); }
        } catch { /* released meanwhile */ }
        announced = true;
        o.logger.info('Waiting for the lock file held by another process', { path: o.path, pid: holder });
      }
      await sleepUnlessAborted(o.pollMs ?? 1000, o.signal);
    }
  }

  /** Calls `onContention` once when the lock file is written to or touched by someone else. */
  watchContention(logger: Logger, onContention: () => void): void {
    let fired = false;
    this.#watcher = watch(this.path, (event) => {
      if (fired) return;
      fired = true;
      logger.info('inotify event', { event, path: this.path });
      onContention();
    });
    this.#watcher.on('error', (e) => logger.error('inotify watcher error', { error: e.message }));
  }

  /** Gives the lock up (only if the file is still ours). */
  release(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (holderOf(this.path) === process.pid) {
      try { unlinkSync(this.path); } catch { /* already gone */ }
    }
  }
}
