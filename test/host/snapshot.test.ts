// `plat snapshot save|status|restore` as an operator runs them: the built command against a running
// `plat all`, its store restored into a new data directory that `plat all` then serves.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { humanBytes } from '../../host/commands/snapshot-output.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlat, runPlatAsync } from '../helpers/run-plat.js';

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('plat snapshot', () => {
  const dir = tempDir('plat-snapshot-cli-');
  let plat: RunningPlat;
  let seen = 0;
  before(async () => { plat = await startProcess({ args: ['--authorization-mode=Node,RBAC'] }); });
  after(async () => { await plat?.stop(); fs.rmSync(dir, { recursive: true, force: true }); });

  const file = path.join(dir, 'backup.db');

  it('save writes a private, whole snapshot of the running store; a user without the right gets 403 and no file', async () => {
    const r = await plat.admin.post(SECRETS, { metadata: { name: 'in-backup' } });
    assert.equal(r.status, 201, r.text);
    const saved = await runPlatAsync(['snapshot', 'save', file, '--kubeconfig', plat.kubeconfig]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, new RegExp(`^Snapshot saved at ${file} \\(revision \\d+, \\d+ total keys, [\\d.]+ kB\\)\\n$`));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dir), ['backup.db']);
    for (let i = 0; i < 3; i++) {
      const later = await plat.admin.post(SECRETS, { metadata: { name: `after-backup-${i}` } });
      seen = Number(later.json.metadata.resourceVersion);
    }

    const other = path.join(dir, 'jane.db');
    const jane = await runPlatAsync(['snapshot', 'save', other, '--kubeconfig', plat.kubeconfig, '--as', 'jane']);
    assert.equal(jane.code, 1);
    assert.equal(jane.stderr, 'plat snapshot save: Error from server (Forbidden): forbidden: User "jane" cannot get path "/snapshot"\n');
    assert.ok(!fs.existsSync(other) && !fs.existsSync(`${other}.part`));
  });

  it('save writes a new FILE.part, never through one left there (a symlink to another file)', async () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    const target = path.join(dir, 'linked.db');
    fs.symlinkSync(victim, `${target}.part`);
    const saved = await runPlatAsync(['snapshot', 'save', target, '--kubeconfig', plat.kubeconfig]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(target).isFile());
    assert.equal(fs.statSync(target).mode & 0o777, 0o600);
    fs.rmSync(target);
    fs.rmSync(victim);
  });

  it('sizes as go-humanize prints them (SI units, one decimal under 10, a half rounded to even)', () => {
    for (const [n, text] of [[0, '0 B'], [9, '9 B'], [10, '10 B'], [999, '999 B'], [1000, '1.0 kB'], [2138112, '2.1 MB'], [233472, '234 kB'], [234500, '234 kB'], [235500, '236 kB'], [82854982, '83 MB'], [1e9, '1.0 GB']] as const) {
      assert.equal(humanBytes(n), text, String(n));
    }
  });

  it('status prints hash, revision, total keys and size (simple, table, json); a live store is refused', () => {
    const json = runPlat(['snapshot', 'status', file, '-w', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const s = JSON.parse(json.stdout) as { hash: number; revision: number; totalKey: number; totalSize: number };
    assert.equal(s.totalSize, fs.statSync(file).size);
    assert.ok(s.revision > 0 && s.revision < seen && s.totalKey > 0);
    const hash = s.hash.toString(16);
    const size = humanBytes(s.totalSize);
    assert.equal(runPlat(['snapshot', 'status', file]).stdout, `${hash}, ${s.revision}, ${s.totalKey}, ${size}\n`);
    const table = runPlat(['snapshot', 'status', file, '--write-out=table']).stdout.split('\n');
    assert.match(table[1]!, /^\| +HASH +\| REVISION \| TOTAL KEYS \| TOTAL SIZE \|$/);
    assert.match(table[3]!, new RegExp(`^\\| ${hash} +\\| +${s.revision} \\| +${s.totalKey} \\| ${size} +\\|$`));
    const live = runPlat(['snapshot', 'status', path.join(plat.dataDir, 'store', 'data.mdb')]);
    assert.equal(live.code, 1);
    assert.match(live.stderr, /^plat snapshot status: .*data\.mdb: the store of a running process \(\d+ holds .*\/store\)/);
  });

  it('restore: --mark-compacted without --bump-revision and a data dir holding a store are refused; restored, plat all serves it past every resourceVersion seen', async () => {
    const target = path.join(dir, 'restored');
    const alone = runPlat(['snapshot', 'restore', file, '--data-dir', target, '--mark-compacted']);
    assert.deepEqual([alone.code, alone.stderr], [2, 'plat snapshot restore: --mark-compacted required if --revision-bump > 0\n']);
    const existing = runPlat(['snapshot', 'restore', file, '--data-dir', plat.dataDir, '--bump-revision', '10', '--mark-compacted']);
    assert.deepEqual([existing.code, existing.stderr], [1, `plat snapshot restore: data-dir "${plat.dataDir}" exists (${path.join(plat.dataDir, 'store')} holds a store)\n`]);
    assert.ok(!fs.existsSync(target));

    const restored = runPlat(['snapshot', 'restore', file, '--data-dir', target, '--bump-revision', '5000000000', '--mark-compacted']);
    assert.equal(restored.code, 0, restored.stderr);
    // Past int32 (etcdutl's flag is a uint64).
    assert.match(restored.stdout, /^Snapshot .*backup\.db \(revision (\d+)\) restored to .*restored\/store: revision 50000000\d\d, compacted 50000000\d\d\n$/);
    const b = await startProcess({ dataDir: target, args: ['--authorization-mode=Node,RBAC'] });
    try {
      const list = await b.admin.get(SECRETS);
      assert.deepEqual(list.json.items.map((x: { metadata: { name: string } }) => x.metadata.name), ['in-backup']);
      const gone = await b.admin.get(`${SECRETS}?resourceVersion=${seen}&resourceVersionMatch=Exact`);
      assert.equal(gone.status, 410, gone.text);
      const created = await b.admin.post(SECRETS, { metadata: { name: 'after-restore' } });
      assert.ok(Number(created.json.metadata.resourceVersion) > seen);
    } finally {
      await b.stop();
    }
  });
});
