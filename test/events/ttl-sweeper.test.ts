// --event-ttl's sweeper on a real LMDB store with an injected clock: an Event goes TTL after its
// last write (a later write moves it), an Event whose TTL passed while no server ran goes at start,
// a pass deletes at most its batch, a watcher sees DELETED, and a rewrite between a pass's read
// and its delete keeps the Event.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../core/log.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage, StorageEvent } from '../../core/storage/storage.js';
import { EventTtlSweeper, eventTtlMs, lastWriteOf } from '../../plugins/events/ttl-sweeper.js';
import { tempDir } from '../helpers/plat.js';

const PREFIX = '/registry/events/';
const T0 = Date.parse('2026-01-01T00:00:00Z');
const TTL = 60_000;

const event = (name: string, created: number, managed: number[] = []) => ({
  kind: 'Event', apiVersion: 'v1',
  metadata: { name, namespace: 'ns', creationTimestamp: new Date(created).toISOString().replace(/\.\d+Z$/, 'Z'), managedFields: managed.map((t) => ({ manager: 'm', operation: 'Update', time: new Date(t).toISOString().replace(/\.\d+Z$/, 'Z') })) },
  reason: 'R',
});

describe('event TTL sweeper', () => {
  let dir: string;
  let storage: Storage;
  let now = T0;
  const sweepers: EventTtlSweeper[] = [];
  const sweeper = (o: { batch?: number } = {}) => {
    const s = new EventTtlSweeper({ storage, prefix: PREFIX, ttlMs: TTL, logger: silentLogger, now: () => now, intervalMs: 3_600_000, ...o });
    sweepers.push(s);
    return s;
  };
  const keys = async () => (await storage.list(PREFIX)).items.map((kv) => kv.key.slice(PREFIX.length));
  /** Until the sweeper's watch has seen the store's latest write (its index follows a watch). */
  const settle = async (s: EventTtlSweeper, count: number) => {
    for (let i = 0; i < 200 && s.tracked !== count; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(s.tracked, count);
  };

  before(async () => { dir = tempDir('plat-ev-ttl-'); storage = await openLmdbStorage({ path: path.join(dir, 'store') }); });
  after(async () => {
    for (const s of sweepers) await s.stop();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the TTL in whole seconds, as upstream\'s lease TTL', () => {
    assert.deepEqual([eventTtlMs(3_600_000), eventTtlMs(1_500), eventTtlMs(999), eventTtlMs(0)], [3_600_000, 1_000, 0, 0]);
  });

  it('reads a stored Event\'s last write from its creationTimestamp and managedFields, never later than now', () => {
    assert.equal(lastWriteOf(event('a', T0 - 5000, [T0 - 9000, T0 - 1000]), T0), T0 - 1000);
    assert.equal(lastWriteOf(event('a', T0 + 5000), T0), T0, 'a time ahead of the clock is now');
    assert.equal(lastWriteOf({ metadata: {} }, T0), T0, 'no time: now');
    // A client may clear managedFields; the Event may have been written since its creation.
    assert.equal(lastWriteOf(event('a', T0 - 50_000), T0), T0, 'no managedFields time: now, not the creation');
  });

  it('at start drains a backlog larger than a pass at once, without waiting an interval', async () => {
    for (let i = 0; i < 5; i++) await storage.create(`${PREFIX}ns/backlog${i}`, event(`backlog${i}`, T0 - 2 * TTL, [T0 - 2 * TTL]));
    now = T0;
    const s = sweeper({ batch: 2 });
    await s.start();
    for (let i = 0; i < 200 && (await keys()).some((k) => k.startsWith('ns/backlog')); i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual((await keys()).filter((k) => k.startsWith('ns/backlog')), []);
    await s.stop();
  });

  it('at start removes the Events whose TTL passed while no server ran, and keeps the others', async () => {
    await storage.create(`${PREFIX}ns/old`, event('old', T0 - 2 * TTL, [T0 - 2 * TTL]));
    await storage.create(`${PREFIX}ns/touched`, event('touched', T0 - 2 * TTL, [T0 - 1000]));
    await storage.create(`${PREFIX}ns/fresh`, event('fresh', T0 - 1000));
    now = T0;
    const s = sweeper();
    await s.start();
    assert.deepEqual(await keys(), ['ns/fresh', 'ns/touched']);
    await s.stop();
  });

  it('deletes an Event TTL after its last write seen, and a write moves its expiry', async () => {
    now = T0;
    const s = sweeper();
    await s.start();
    const watch = storage.watch(PREFIX, { fromRevision: await storage.currentRevision() });
    const seen: StorageEvent[] = [];
    void (async () => { for await (const e of watch) seen.push(e); })();
    now = T0 + 10_000;
    const kv = await storage.create(`${PREFIX}ns/live`, event('live', now));
    await settle(s, 3);
    now = T0 + 40_000;
    await storage.update(`${PREFIX}ns/live`, { ...event('live', T0 + 10_000), count: 2 }, kv.modRevision);
    await settle(s, 3);
    now = T0 + 10_000 + TTL;
    // fresh and touched expire here; live was written again 30 s later.
    assert.deepEqual(await s.sweep(), { deleted: 2, more: false });
    assert.deepEqual(await keys(), ['ns/live']);
    now = T0 + 40_000 + TTL;
    assert.deepEqual(await s.sweep(), { deleted: 1, more: false });
    assert.deepEqual(await keys(), []);
    for (let i = 0; i < 200 && seen.filter((e) => e.type === 'DELETED').length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(seen.filter((e) => e.type === 'DELETED').map((e) => e.key.slice(PREFIX.length)).sort(), ['ns/fresh', 'ns/live', 'ns/touched']);
    watch.close();
    await s.stop();
  });

  it('runs expiries on the monotonic clock: a wall clock stepped either way neither ends an Event early nor keeps it', async () => {
    let wall = T0;
    let mono = 1_000_000;
    const s = new EventTtlSweeper({ storage, prefix: PREFIX, ttlMs: TTL, logger: silentLogger, now: () => wall, monotonicNow: () => mono, intervalMs: 3_600_000 });
    sweepers.push(s);
    // Stored before this sweeper started, written 10 s ago by its own times: 50 s left.
    await storage.create(`${PREFIX}ns/stepped`, event('stepped', T0 - 10_000, [T0 - 10_000]));
    await s.start();
    wall = T0 + 2 * 3_600_000; // forward two hours, no time passes
    assert.deepEqual(await s.sweep(), { deleted: 0, more: false });
    wall = T0 - 2 * 3_600_000; // and back
    mono += TTL - 10_000;
    assert.deepEqual(await s.sweep(), { deleted: 1, more: false }, 'gone when its TTL has passed, whatever the wall clock says');
    assert.deepEqual(await keys(), []);
    await s.stop();
  });

  it('a pass deletes at most its batch and says more are due', async () => {
    now = T0;
    for (let i = 0; i < 5; i++) await storage.create(`${PREFIX}ns/b${i}`, event(`b${i}`, T0));
    const s = sweeper({ batch: 2 });
    await s.start();
    now = T0 + TTL;
    assert.deepEqual(await s.sweep(), { deleted: 2, more: true });
    assert.deepEqual(await s.sweep(), { deleted: 2, more: true });
    assert.deepEqual(await s.sweep(), { deleted: 1, more: false });
    assert.deepEqual(await keys(), []);
    await s.stop();
  });
});
