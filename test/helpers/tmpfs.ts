// A small tmpfs of its own for a test that needs a full disk. Mounting needs root (CI runs as
// root); elsewhere the test is skipped with the reason mount gave.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Tmpfs { readonly dir: string; unmount(): void }

/** A tmpfs of `size` (mount's syntax: 8m) on a new temp directory, or the reason it could not be made. */
export function mountTmpfs(size: string): Tmpfs | string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs (needs root): ${(r.stderr || r.error?.message || `mount exited ${r.status}`).trim()}`;
  }
  return {
    dir,
    unmount: () => {
      // Lazily when busy (a process of the test still holds a file there): never leave it mounted.
      if (spawnSync('umount', [dir], { timeout: 10_000 }).status !== 0) spawnSync('umount', ['-l', dir], { timeout: 10_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
