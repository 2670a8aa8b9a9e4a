// What a write that died half-way leaves beside its file (the temp file of a private key, the kept
// copy of what it replaced) is removed by the next write of that file, unless its writer still
// runs; and a temp file that cannot be made is reported under the name the caller asked for.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomic, writeFileAtomicSync } from '../../core/pki/write-file-atomic.js';
import { tempDir } from '../helpers/plat.js';

describe('writeFileAtomic leftovers', () => {
  for (const [kind, write] of [
    ['async', writeFileAtomic],
    ['sync', async (f: string, d: string, m: number) => writeFileAtomicSync(f, d, m)],
  ] as const) {
    it(`${kind}: a dead writer's temp and kept files go, a running one's and others stay`, async () => {
      const dir = tempDir();
      const dead = spawnSync(process.execPath, ['-e', '']).pid;
      const alive = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        const names = [
          `.ca.key.${dead}.0123456789ab.tmp`, `.ca.key.${dead}.0123456789ab.old`,
          `.ca.key.${alive.pid}.0123456789ab.tmp`, `.ca.crt.${dead}.0123456789ab.tmp`, '.ca.key.notes',
        ];
        for (const n of names) writeFileSync(path.join(dir, n), 'secret', { mode: 0o600 });
        await write(path.join(dir, 'ca.key'), 'new key', 0o600);
        assert.deepEqual(readdirSync(dir).sort(), ['ca.key', `.ca.key.${alive.pid}.0123456789ab.tmp`, `.ca.crt.${dead}.0123456789ab.tmp`, '.ca.key.notes'].sort());
      } finally {
        alive.kill();
      }
    });

    it(`${kind}: a temp file that cannot be made is said under the file's own name`, async () => {
      const file = path.join(tempDir(), 'missing-dir', 'ca.key');
      await assert.rejects(write(file, 'k', 0o600), (e: NodeJS.ErrnoException) => {
        assert.equal(e.code, 'ENOENT');
        assert.equal(e.path, file);
        assert.equal(e.message, `ENOENT: no such file or directory, open '${file}'`);
        return true;
      });
      assert.equal(existsSync(path.dirname(file)), false);
    });
  }
});
