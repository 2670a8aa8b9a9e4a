// Creating --out-dir (0700) one level at a time. Node 20's recursive mkdir never returns for a
// path under a filesystem that refuses new entries with ENOENT (procfs: mkdir("/proc/x") loops
// between ENOENT and EEXIST on /proc), so the command would spin instead of saying why.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export async function makeOutDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = path.resolve(dir); !existsSync(p); p = path.dirname(p)) {
    missing.unshift(p);
    if (path.dirname(p) === p) break;
  }
  for (const d of missing) {
    try {
      await mkdir(d, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
