// A store LMDB cannot be trusted with stops start-up with the data file named and exit 1: LMDB maps
// a truncated file as its meta page describes it and dies of SIGBUS or SIGSEGV at the first read
// past the end, and takes an empty file for a new store (every object gone, resourceVersions
// starting again). The refusal leaves no lock behind: with the file restored, the next start serves.
// LMDB's own open errors name no file; they are said as Go's *os.PathError.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { startProcess, tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

const coreDir = fileURLToPath(new URL('../../core/', import.meta.url));

describe('a damaged store', () => {
  const dataDir = tempDir('plat-damaged-');
  const store = path.join(dataDir, 'store');
  const dataFile = path.join(store, 'data.mdb');
  let good: Buffer;
  before(async () => {
    const plat = await startProcess({ dataDir });
    try {
      const r = await plat.admin.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'keep' } });
      assert.equal(r.status, 201, r.text);
    } finally {
      await plat.stop();
    }
    good = fs.readFileSync(dataFile);
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const magic = (b: Buffer) => { const c = Buffer.from(b); c.writeUInt32LE(0x12345678, 24); return c; };
  /** The current meta page's highest root page (free-space or main database) and whose it is. */
  const lastRoot = (g: Buffer): { page: number; db: string } => {
    const page = g.readUInt32LE(48);
    const meta = [0, page].reduce((a, b) => (g.readBigUInt64LE(b + 152) > g.readBigUInt64LE(a + 152) ? b : a));
    const roots = [{ page: Number(g.readBigUInt64LE(meta + 88)), db: 'free-space' }, { page: Number(g.readBigUInt64LE(meta + 136)), db: 'main' }];
    return roots.filter((r) => r.page < g.length / page).reduce((a, b) => (b.page > a.page ? b : a));
  };
  const cases: Array<{ name: string; damage: (good: Buffer) => Buffer | undefined; problem: (good: Buffer) => string }> = [
    {
      name: 'cut short before a root page', damage: (g) => g.subarray(0, lastRoot(g).page * 4096),
      problem: (g) => `file is truncated: ${lastRoot(g).page * 4096} bytes, but the root page (${lastRoot(g).page}) of its ${lastRoot(g).db} database ends at byte ${(lastRoot(g).page + 1) * 4096}`,
    },
    { name: 'truncated to 100 bytes', damage: (g) => g.subarray(0, 100), problem: () => 'file is truncated: 100 bytes, shorter than its meta pages' },
    { name: 'emptied', damage: () => Buffer.alloc(0), problem: () => 'file is empty, but this store held data before' },
    { name: 'removed', damage: () => undefined, problem: () => 'no such file, but this store held data before' },
    { name: 'overwritten', damage: magic, problem: () => 'not an LMDB data file: meta page 0 has magic 0x12345678, not 0xbeefc0de' },
  ];
  for (const c of cases) {
    it(`refuses a data file ${c.name}, naming it, with exit 1`, () => {
      const damaged = c.damage(good);
      if (damaged) fs.writeFileSync(dataFile, damaged); else fs.rmSync(dataFile);
      const r = runPlat(['all', '--data-dir', dataDir, '--secure-port', '0']);
      assert.equal(r.code, 1, `exit code (a signal gives null):\n${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').at(-1),
        `plat all: --data-dir ${dataDir}: ${dataFile}: ${c.problem(good)} (restore ${store} from a backup, or remove it to start with an empty store)`);
    });
  }

  it('starts again, with its objects, once the file is restored', async () => {
    fs.writeFileSync(dataFile, good);
    const plat = await startProcess({ dataDir });
    try {
      assert.equal((await plat.admin.get('/api/v1/namespaces/default/secrets/keep')).status, 200);
      assert.doesNotMatch(plat.output(), /stale storage lock/);
    } finally {
      await plat.stop();
    }
  });
});

const notRoot = process.getuid?.() !== 0 && 'needs root, to open the store as another user';

describe('a store the user may not open', { skip: notRoot }, () => {
  const parent = tempDir('plat-perm-');
  const dir = path.join(parent, 'store');
  const dataFile = path.join(dir, 'data.mdb');
  before(async () => {
    const s = await openLmdbStorage({ path: dir });
    await s.create('a', 1);
    await s.close();
    fs.chmodSync(parent, 0o777);
    fs.chmodSync(dir, 0o777);
  });
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  /**
   * The error of the check openLmdbStorage makes before LMDB opens anything, as user nobody sees
   * it. The check's modules are copied where nobody may read them: the checkout may be private.
   */
  const openAsNobody = (): string => {
    const code = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-perm-code-'));
    try {
      fs.mkdirSync(path.join(code, 'storage'));
      fs.writeFileSync(path.join(code, 'package.json'), '{"type":"module"}');
      fs.copyFileSync(path.join(coreDir, 'storage', 'lmdb-file.js'), path.join(code, 'storage', 'lmdb-file.js'));
      fs.copyFileSync(path.join(coreDir, 'go-os-error.js'), path.join(code, 'go-os-error.js'));
      fs.chmodSync(code, 0o755);
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
        const { checkLmdbFile } = await import(${JSON.stringify(path.join(code, 'storage', 'lmdb-file.js'))});
        try { checkLmdbFile(${JSON.stringify(dataFile)}); console.log('opened'); } catch (e) { console.log(e.message); }
      `], { uid: 65534, gid: 65534, cwd: code, encoding: 'utf8', timeout: 30_000 });
      return `${r.stdout}${r.stderr}`.trim();
    } finally {
      fs.rmSync(code, { recursive: true, force: true });
    }
  };

  const cases = [
    { name: 'its lock file', data: 0o666, lock: 0o600, want: `open ${dataFile}-lock: permission denied` },
    { name: 'its data file for writing', data: 0o644, lock: 0o666, want: `open ${dataFile}: permission denied` },
    { name: 'its data file at all', data: 0o600, lock: 0o666, want: `open ${dataFile}: permission denied` },
  ];
  for (const c of cases) {
    it(`names ${c.name} and the errno, as Go's PathError`, () => {
      fs.chmodSync(dataFile, c.data);
      fs.chmodSync(`${dataFile}-lock`, c.lock);
      assert.equal(openAsNobody(), c.want);
    });
  }
});
