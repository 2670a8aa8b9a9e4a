// Whether a pid names a process that still runs: one this process may not signal counts (it
// exists), and so does any where /proc is missing; a zombie does not.
import fs from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed process whose parent has not reaped it yet (a shell that started it in the background, a
 * supervisor slow to wait) still answers kill(pid, 0), but it has exited and holds nothing: its
 * /proc state is Z (or X).
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
