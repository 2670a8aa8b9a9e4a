// data.mdb holds every Secret: the store's files are 0600 whatever the umask (LMDB alone makes them
// 0664 less it) and whatever mode an older plat left them with; the directory is checked as etcd
// checks its data dir, warned about and left as it is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../core/log.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { tempDir } from '../helpers/plat.js';

const lmdbModule = fileURLToPath(new URL('../../core/storage/lmdb.js', import.meta.url));
const mode = (file: string): string => `0${(fs.statSync(file).mode & 0o7777).toString(8)}`;

describe('the store\'s files', () => {
  const parent = tempDir('plat-private-');
  const store = path.join(parent, 'store');
  const dataFile = path.join(store, 'data.mdb');
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('are made 0600 under umask 000', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
      process.umask(0);
      const { openLmdbStorage } = await import(${JSON.stringify(lmdbModule)});
      const s = await openLmdbStorage({ path: ${JSON.stringify(store)} });
      await s.create('/registry/secrets/default/a', { data: { token: 'c2VjcmV0' } });
      await s.close();
    `], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const files = fs.readdirSync(store).sort();
    assert.deepEqual(files, ['data.mdb', 'data.mdb-lock', 'initialised']);
    assert.deepEqual(files.map((f) => [f, mode(path.join(store, f))]), files.map((f) => [f, '0600']));
    assert.equal(mode(store), '0700');
  });

  it('are narrowed to 0600 in an existing store; its wider directory is warned about as etcd does, and kept', async () => {
    for (const f of [dataFile, `${dataFile}-lock`]) fs.chmodSync(f, 0o644);
    fs.chmodSync(store, 0o755);
    const lines: string[] = [];
    const s = await openLmdbStorage({ path: store, logger: createLogger({ write: (l) => lines.push(l) }) });
    try {
      assert.deepEqual(await s.get('/registry/secrets/default/a').then((kv) => kv?.value), { data: { token: 'c2VjcmV0' } });
      assert.deepEqual([mode(dataFile), mode(`${dataFile}-lock`), mode(store)], ['0600', '0600', '0755']);
      const warning = lines.find((l) => l.includes('check file permission'));
      assert.ok(warning, lines.join('\n'));
      assert.ok(warning.startsWith('W'), warning);
      assert.ok(warning.endsWith(` check file permission error=${JSON.stringify(
        `directory "${store}" exist, but the permission is "drwxr-xr-x". The recommended permission is "-rwx------" to prevent possible unprivileged access to the data`)}`), warning);
    } finally {
      await s.close();
    }
  });

  it('leave a 0700 directory unremarked', async () => {
    fs.chmodSync(store, 0o700);
    const lines: string[] = [];
    const s = await openLmdbStorage({ path: store, logger: createLogger({ write: (l) => lines.push(l) }) });
    await s.close();
    assert.deepEqual(lines.filter((l) => l.startsWith('W')), []);
  });
});
