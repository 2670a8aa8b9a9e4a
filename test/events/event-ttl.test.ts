// --event-ttl on `plat all`: an Event goes that long after its last write and a watcher sees
// DELETED; one that outlived its TTL while the server was down is gone once the server is back;
// 0 keeps Events; a negative TTL is refused.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';
import { runPlat } from '../helpers/run-plat.js';

const EVENTS = '/api/v1/namespaces/default/events';
const event = (name: string) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Node', name: 'n' }, reason: 'R', message: 'm' });

describe('--event-ttl', () => {
  it('an Event goes its TTL after its last write; a watcher sees DELETED', async () => {
    const plat = await startInProcess({ args: ['--event-ttl=1s'] });
    try {
      const w = await WatchStream.open(plat.admin, `${EVENTS}?watch=true&resourceVersion=0`);
      try {
        assert.equal((await plat.admin.post(EVENTS, event('short'))).status, 201);
        const gone = await w.waitFor((e) => e.type === 'DELETED' && e.object.metadata.name === 'short', 'the Event deleted', 0, 20_000);
        assert.equal(gone.object.reason, 'R');
        assert.equal((await plat.admin.get(`${EVENTS}/short`)).status, 404);
      } finally {
        w.close();
      }
    } finally {
      await plat.stop();
    }
  });

  it('covers events.platform/v1 Events: the same records, one sweeper; both versions\' watchers see DELETED', async () => {
    const plat = await startInProcess({ args: ['--event-ttl=1s'] });
    const V1 = '/apis/events.platform/v1/namespaces/default/events';
    try {
      const w1 = await WatchStream.open(plat.admin, `${V1}?watch=true&resourceVersion=0`);
      const w0 = await WatchStream.open(plat.admin, `${EVENTS}?watch=true&resourceVersion=0`);
      try {
        const body = {
          apiVersion: 'events.platform/v1', kind: 'Event', metadata: { name: 'short-v1' }, eventTime: '2026-01-01T00:00:00.000000Z',
          reportingController: 'platform/t', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Node', name: 'n' },
        };
        assert.equal((await plat.admin.post(V1, body)).status, 201);
        const gone = await w1.waitFor((e) => e.type === 'DELETED' && e.object.metadata.name === 'short-v1', 'the events/v1 Event deleted', 0, 20_000);
        assert.deepEqual([gone.object.apiVersion, gone.object.action], ['events.platform/v1', 'A']);
        const core = await w0.waitFor((e) => e.type === 'DELETED' && e.object.metadata.name === 'short-v1', 'the core/v1 Event deleted');
        assert.equal(core.object.apiVersion, 'v1');
        assert.equal((await plat.admin.get(`${V1}/short-v1`)).status, 404);
      } finally {
        w1.close();
        w0.close();
      }
    } finally {
      await plat.stop();
    }
  });

  it('an Event whose TTL passed while the server was down is gone after a restart', async () => {
    const dataDir = tempDir();
    try {
      const first = await startInProcess({ dataDir, args: ['--event-ttl=1h'] });
      assert.equal((await first.admin.post(EVENTS, event('kept-while-up'))).status, 201);
      await first.stop();
      // The restarted server keeps Events 1 s: this one, written over a second ago, goes at start.
      await new Promise((r) => setTimeout(r, 1100));
      const second = await startInProcess({ dataDir, args: ['--event-ttl=1s'] });
      try {
        assert.equal((await second.admin.get(`${EVENTS}/kept-while-up`)).status, 404);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('--event-ttl=0 keeps Events', async () => {
    const plat = await startInProcess({ args: ['--event-ttl=0s'] });
    try {
      assert.equal((await plat.admin.post(EVENTS, event('forever'))).status, 201);
      assert.equal((await plat.admin.get(`${EVENTS}/forever`)).status, 200);
    } finally {
      await plat.stop();
    }
  });

  it('is implemented: --help lists it without "not supported yet"', () => {
    const r = runPlat(['apiserver', '--help']);
    assert.match(r.stdout + r.stderr, /--event-ttl duration +Event retention\. \(default 1h0m0s\)\n/);
  });

  it('a negative TTL is refused', () => {
    const r = runPlat(['apiserver', '--event-ttl=-1s']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--event-ttl.*must not be negative/);
  });
});
