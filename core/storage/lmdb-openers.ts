// Which other processes have an LMDB environment open, as the kernel knows it. LMDB holds a
// shared fcntl lock on byte 0 of its lock file (`data.mdb-lock`) for as long as an environment is
// open, and /proc/locks lists every such lock with its owner's pid and the file's device and inode.
// The pid file of dir-lock.ts names the owner for messages and settles two starts at once, but an
// operator may delete it; the kernel's locks cannot be deleted and die with their process, so a
// second daemon is refused even then (bbolt's flock does the same for etcd).
import fs from 'node:fs';

export const PROC_LOCKS = '/proc/locks';

/** major:minor of a stat's st_dev, as glibc's gnu_dev_major/minor split it. */
function majorMinor(dev: bigint): [bigint, bigint] {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return [major, minor];
}

/** Whether `pid` has `file` open, when its fd table can be read (undefined when it cannot). */
function hasOpen(pid: number, file: string): boolean | undefined {
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  return fds.some((fd) => {
    try { return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file; } catch { return false; }
  });
}

/**
 * The pids of other processes holding a POSIX lock on `lockFile` (0 for one in a pid namespace this
 * process cannot see). Empty when the file does not exist or the kernel's table cannot be read
 * (not Linux): the pid file is then the only guard.
 */
export function lmdbOpeners(lockFile: string, locksTable: string = PROC_LOCKS): number[] {
  let st: fs.BigIntStats, real: string, table: string;
  try {
    st = fs.statSync(lockFile, { bigint: true });
    real = fs.realpathSync(lockFile);
    table = fs.readFileSync(locksTable, 'utf8');
  } catch {
    return [];
  }
  const [major, minor] = majorMinor(st.dev);
  const pids = new Set<number>();
  for (const line of table.split('\n')) {
    // `1: POSIX  ADVISORY  READ 3897 fe:00:2426141 0 0`; a waiter's line has `->` after the id.
    const f = line.trim().split(/\s+/);
    if (f[1] === '->' || f[1] !== 'POSIX') continue;
    const pid = Number(f[4]);
    const id = /^([0-9a-f]+):([0-9a-f]+):([0-9]+)$/.exec(f[5] ?? '');
    if (!id || BigInt(id[3]!) !== st.ino || pid === process.pid || pids.has(pid)) continue;
    const sameDevice = BigInt(`0x${id[1]}`) === major && BigInt(`0x${id[2]}`) === minor;
    // Some filesystems (btrfs subvolumes, overlays) give stat a device other than the lock table's.
    if (sameDevice || hasOpen(pid, real) === true) pids.add(Number.isSafeInteger(pid) && pid > 0 ? pid : 0);
  }
  return [...pids];
}
