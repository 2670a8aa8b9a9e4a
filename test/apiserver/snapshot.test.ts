// GET /snapshot on a real in-process API server over TLS: a consistent copy of the store taken while
// writes go on (every write acknowledged before it was asked for is in it, and exactly the writes up
// to its revision), refused to a user without the right to get the URL, never cached and no copy left
// on disk; a failed copy is a 500 Status. Restored with a revision bump and history compacted, a watch
// or exact list from a resourceVersion seen before is 410 Gone, a list works, and new writes come after
// every resourceVersion seen.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { isStatusError } from '../../core/api/errors.js';
import { silentLogger } from '../../core/log.js';
import { snapshotHandler } from '../../core/server/snapshot-route.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { readSnapshotStatus } from '../../core/storage/lmdb-snapshot.js';
import { restoreSnapshot } from '../../core/storage/snapshot-restore.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { eventsOf, startAudited } from '../audit/support.js';
import { waitUntil, WatchStream } from '../helpers/watch-stream.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const OCTETS = { accept: 'application/octet-stream' };

async function create(plat: RunningPlat, name: string): Promise<number> {
  const r = await plat.admin.post(SECRETS, { metadata: { name } });
  assert.equal(r.status, 201, r.text);
  return Number(r.json.metadata.resourceVersion);
}

describe('GET /snapshot', () => {
  const root = tempDir('plat-snapshot-api-');
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is a consistent copy taken while writes go on, for cluster-admins only, never cached, none left on disk', async () => {
    const plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC'] });
    try {
      const acked = new Map<string, number>();
      const writer = async (w: number) => {
        for (let i = 0; i < 40; i++) acked.set(`w${w}-${i}`, await create(plat, `w${w}-${i}`));
      };
      const writers = [0, 1, 2, 3].map(writer);
      await waitUntil(() => (acked.size >= 30 ? true : undefined), '30 acknowledged writes');
      const before = new Map(acked);
      const snap = await plat.admin.get('/snapshot', OCTETS);
      await Promise.all(writers);
      assert.equal(snap.status, 200, snap.text);
      assert.equal(snap.headers['content-type'], 'application/octet-stream');
      assert.equal(snap.headers['cache-control'], 'no-store');
      assert.equal(Number(snap.headers['content-length']), snap.raw.length);
      assert.deepEqual(fs.readdirSync(path.join(plat.dataDir, 'store')).filter((n) => n.startsWith('snapshot')), []);

      const file = path.join(root, 'live.db');
      fs.writeFileSync(file, snap.raw);
      const { revision } = await readSnapshotStatus(file);
      await restoreSnapshot(file, path.join(root, 'live'));
      const store = await openLmdbStorage({ path: path.join(root, 'live', 'store') });
      const held = new Map<string, number>();
      try {
        for (const kv of (await store.list('/registry/secrets/default/')).items) held.set(kv.key.split('/').pop()!, kv.modRevision);
      } finally {
        await store.close();
      }
      for (const [name, rv] of before) assert.equal(held.get(name), rv, `${name}, acknowledged before the snapshot was asked for`);
      for (const [name, rv] of acked) assert.equal(held.get(name), rv <= revision ? rv : undefined, `${name} at ${rv}, snapshot at ${revision}`);

      const jane = await plat.admin.get('/snapshot', { ...OCTETS, 'impersonate-user': 'jane' });
      assert.equal(jane.status, 403);
      assert.equal(jane.json.kind, 'Status');
      assert.equal(jane.json.message, 'forbidden: User "jane" cannot get path "/snapshot"');
      assert.equal((await plat.admin.post('/snapshot', {})).status, 405);
    } finally {
      await plat.stop();
    }
  });

  it('is audited as any request: who asked, the path, the answer\'s code, and the copy is a long-running request\'s stages', async () => {
    const { plat, dir } = await startAudited('apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const { log } = { log: path.join(dir, 'logs', 'audit.log') };
    try {
      const snap = await plat.admin.get('/snapshot', { ...OCTETS, 'audit-id': 'snapshot-1' });
      assert.equal(snap.status, 200);
      const events = await eventsOf(log, 'snapshot-1');
      assert.deepEqual(events.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
      const done = events.at(-1);
      assert.deepEqual([done.verb, done.requestURI, done.user.username, done.responseStatus.code], ['get', '/snapshot', 'plat-admin', 200]);
    } finally {
      await plat.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a copy that fails is a 500 Status and leaves nothing behind', async () => {
    const dir = path.join(root, 'failing');
    fs.mkdirSync(dir);
    const handler = snapshotHandler({ dir, copy: async (f) => { fs.writeFileSync(f, 'half'); throw new Error('MDB_PANIC: disk on fire'); } }, silentLogger);
    const ctx = { method: 'GET', state: {}, set: () => {} } as unknown as Parameters<typeof handler>[0];
    await assert.rejects(handler(ctx), (e) => isStatusError(e) && e.status.code === 500 && e.status.message === 'Internal error occurred: snapshot: MDB_PANIC: disk on fire');
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('restored with --bump-revision --mark-compacted: old resourceVersions are 410 Gone, a list works, new writes come after them', async () => {
    const dataA = path.join(root, 'a');
    const a = await startInProcess({ dataDir: dataA });
    const file = path.join(root, 'a.db');
    let seen = 0;
    try {
      await create(a, 'kept');
      const snap = await a.admin.get('/snapshot', OCTETS);
      assert.equal(snap.status, 200);
      fs.writeFileSync(file, snap.raw);
      for (let i = 0; i < 5; i++) seen = Math.max(seen, await create(a, `lost-${i}`));
    } finally {
      await a.stop();
    }
    const snapRevision = (await readSnapshotStatus(file)).revision;
    assert.ok(snapRevision < seen);
    const dataB = path.join(root, 'b');
    const restored = await restoreSnapshot(file, dataB, { bumpRevision: 1_000_000, markCompacted: true });
    assert.equal(restored.revision, snapRevision + 1_000_000);
    const b = await startInProcess({ dataDir: dataB });
    try {
      for (const from of [seen, snapRevision]) {
        const w = await WatchStream.open(b.admin, `${SECRETS}?watch=1&resourceVersion=${from}`);
        try {
          const [err] = await w.waitForCount(1);
          assert.equal(err!.type, 'ERROR');
          assert.equal(err!.object.code, 410);
          assert.equal(err!.object.reason, 'Expired');
          assert.match(err!.object.message, new RegExp(`^too old resource version: ${from} \\(\\d+\\)$`));
        } finally {
          w.close();
        }
      }
      const exact = await b.admin.get(`${SECRETS}?resourceVersion=${seen}&resourceVersionMatch=Exact`);
      assert.equal(exact.status, 410, exact.text);
      const list = await b.admin.get(SECRETS);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.json.items.map((s: { metadata: { name: string } }) => s.metadata.name), ['kept']);
      assert.ok(Number(list.json.metadata.resourceVersion) > seen);
      const w = await WatchStream.open(b.admin, `${SECRETS}?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);
      try {
        const rv = await create(b, 'after-restore');
        assert.ok(rv > seen && rv > restored.revision, `${rv} after every resourceVersion seen (${seen})`);
        const added = await w.waitFor((e) => e.object?.metadata?.name === 'after-restore', 'the new Secret watched');
        assert.equal(added.type, 'ADDED');
      } finally {
        w.close();
      }
    } finally {
      await b.stop();
    }
  });
});
