// The informer against a real plat: initial list into the cache, watch events, re-list after the
// version it watches from is compacted (410) with every change of the gap delivered, and a resync.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError, RestClient } from '../../core/client/rest-client.js';
import { Informer } from '../../core/controller/informer.js';
import { createLogger } from '../../core/log.js';
import { getApiServer } from '../../plugins/apiserver/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import { RecordingBackoff } from './recording-backoff.js';
import { adminConnection } from './support.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };

describe('Informer', () => {
  let plat: RunningPlat;
  let client: RestClient;
  const fx = fixtures();
  before(async () => { plat = await startInProcess(); client = new RestClient(adminConnection(plat)); });
  after(async () => { client?.close(); await plat?.stop(); });

  it('lists, then follows adds, updates and deletes; re-lists after compaction', async () => {
    for (const n of ['inf-1', 'inf-2']) assert.equal((await plat.admin.post(`/apis/certificates.platform/v1/certificatesigningrequests`, baseCsr(fx, n))).status, 201);
    const events: string[] = [];
    const inf = new Informer({
      client, resource: CSRS, pageSize: 1,
      handlers: {
        add: (o) => events.push(`add ${o.metadata.name}`),
        update: (a, b) => events.push(`update ${b.metadata.name}${a.metadata.resourceVersion === b.metadata.resourceVersion ? ' (resync)' : ''}`),
        delete: (o) => events.push(`delete ${o.metadata.name}`),
      },
    });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    await inf.waitForSync(stop.signal);
    assert.deepEqual(inf.list().map((o) => o.metadata.name).sort(), ['inf-1', 'inf-2']);
    assert.deepEqual(events.sort(), ['add inf-1', 'add inf-2']);
    events.length = 0;

    await client.create(CSRS, baseCsr(fx, 'inf-3'));
    await client.patch(CSRS, 'inf-1', { metadata: { labels: { x: '1' } } });
    await client.delete(CSRS, 'inf-2');
    await eventually(() => events.length >= 3, 'watch events');
    assert.deepEqual(events, ['add inf-3', 'update inf-1', 'delete inf-2']);
    assert.equal(inf.get('inf-1')?.metadata.labels?.['x'], '1');
    assert.equal(inf.get('inf-2'), undefined);
    stop.abort();
    await running;
  });

  it('re-lists when the version it watches from was compacted while it was not watching; misses no add, update or delete', async () => {
    for (const n of ['gap-1', 'gap-2']) assert.equal((await plat.admin.post(`/apis/certificates.platform/v1/certificatesigningrequests`, baseCsr(fx, n))).status, 201);
    // The server ends the first watch cleanly (its timeout); the informer watches again from the
    // version it had, but that request is held until the history was compacted past it.
    const watchedFrom: (string | undefined)[] = [];
    const endFirst = new AbortController();
    let openGate: () => void = () => {};
    const gate = new Promise<void>((r) => { openGate = r; });
    const gated = {
      list: client.list.bind(client),
      async *watch(r: typeof CSRS, o: Parameters<RestClient['watch']>[1] = {}) {
        watchedFrom.push(o.resourceVersion);
        if (watchedFrom.length === 2) await gate;
        if (watchedFrom.length !== 1) { yield* client.watch(r, o); return; }
        const events = client.watch(r, { ...o, signal: AbortSignal.any([o.signal!, endFirst.signal]) });
        const ended = new Promise<'ended'>((resolve) => endFirst.signal.addEventListener('abort', () => resolve('ended'), { once: true }));
        for (;;) {
          const next = events.next();
          const e = await Promise.race([next, ended]);
          if (e === 'ended') { next.catch(() => {}); return; }
          if (e.done) return;
          yield e.value;
        }
      },
    } as unknown as RestClient;
    const events: string[] = [];
    const logs: string[] = [];
    const inf = new Informer({
      client: gated, resource: CSRS, logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }), backoff: new RecordingBackoff(),
      // Every watch lasts long enough not to count as a very short one (else it would be a failure, re-listed after a backoff).
      now: (() => { let t = 0; return () => (t += 60_000); })(),
      handlers: {
        add: (o) => events.push(`add ${o.metadata.name}`),
        update: (a, b) => { if (a.metadata.resourceVersion !== b.metadata.resourceVersion) events.push(`update ${b.metadata.name}`); },
        delete: (o) => events.push(`delete ${o.metadata.name}`),
      },
    });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    await inf.waitForSync(stop.signal);
    events.length = 0;
    endFirst.abort();
    await eventually(() => watchedFrom.length === 2, 'the second watch');
    assert.equal(watchedFrom[1], watchedFrom[0], 'watches again from the same version');

    await client.create(CSRS, baseCsr(fx, 'gap-3'));
    await client.patch(CSRS, 'gap-1', { metadata: { labels: { x: '1' } } });
    await client.delete(CSRS, 'gap-2');
    const storage = getApiServer(plat.host!)!.storage;
    await storage.compact(await storage.currentRevision());
    assert.ok(Number(watchedFrom[1]) < await storage.compactedRevision());
    openGate();

    await eventually(() => events.length >= 3, 'the changes made in the gap');
    assert.deepEqual(events.sort(), ['add gap-3', 'delete gap-2', 'update gap-1']);
    assert.match(logs.join('\n'), /core\/controller\/informer\.ts: watch of <unspecified> closed with: /);
    assert.equal(inf.get('gap-1')?.metadata.labels?.['x'], '1');
    assert.equal(inf.get('gap-2'), undefined);
    await eventually(() => watchedFrom.length === 3, 'a watch from the re-list');
    assert.ok(Number(watchedFrom[2]) >= await storage.compactedRevision());
    assert.doesNotMatch(logs.join('\n'), /failed/, 'neither a failure nor a backoff');
    stop.abort();
    await running;
  });

  it('resyncs every period', async () => {
    let resyncs = 0;
    const inf = new Informer({ client, resource: CSRS, resyncMs: 50, handlers: { update: (a, b) => { if (a === b) resyncs++; } } });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    await inf.waitForSync(stop.signal);
    await eventually(() => resyncs >= 2, 'two resyncs');
    stop.abort();
    await running;
  });

  it('backs off exponentially when every watch fails right after a successful list, as the reflector', async () => {
    // e.g. a user that may list but not watch: upstream's backoff manager keeps growing (800ms
    // to 30s, reset after 2 minutes without failure); a backoff reset by every successful list
    // would re-list the whole collection and log an error every 800ms for ever.
    let lists = 0;
    const failing = {
      list: async () => { lists++; return { metadata: { resourceVersion: '7' }, items: [] }; },
      watch: async function* () { throw new ApiError(403, 'Forbidden', 'watch is forbidden'); },
    } as unknown as RestClient;
    const logs: string[] = [];
    const backoff = new RecordingBackoff();
    const inf = new Informer({ client: failing, resource: { ...CSRS, kind: 'CertificateSigningRequest' }, logger: createLogger({ write: (l) => logs.push(l) }), backoff });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    await eventually(() => backoff.waits.length >= 3, 'three failed watches');
    stop.abort();
    await running;
    assert.deepEqual(backoff.waits.slice(0, 3), [800, 1600, 3200]);
    assert.ok(lists <= backoff.waits.length + 1, `${lists} lists for ${backoff.waits.length} backoffs`);
    assert.match(logs[0] ?? '', /^E.* Unhandled Error err="core\/controller\/informer\.ts: Failed to watch \*v1\.CertificateSigningRequest: watch is forbidden"$/);
  });

  it('backs off when the server ends every watch at once with nothing in it, as the reflector\'s "very short watch"', async () => {
    // A proxy or a server that closes watch streams as it takes them: watching again at once
    // would send it watch after watch without pause.
    let watches = 0;
    const closing = {
      list: async () => ({ metadata: { resourceVersion: '7' }, items: [] }),
      watch: async function* () { watches++; await new Promise((r) => setImmediate(r)); },
    } as unknown as RestClient;
    const logs: string[] = [];
    const backoff = new RecordingBackoff(5, { initialMs: 10 });
    const inf = new Informer({ client: closing, resource: CSRS, logger: createLogger({ write: (l) => logs.push(l) }), backoff, now: () => 0 });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => backoff.waits.length >= 3, 'three short watches backed off');
    } finally {
      stop.abort();
      await running;
    }
    assert.deepEqual(backoff.waits.slice(0, 3), [10, 20, 40]);
    assert.ok(watches <= backoff.waits.length + 1, `${watches} watches for ${backoff.waits.length} backoffs`);
    assert.match(logs[0] ?? '', /^W.* core\/controller\/informer\.ts: watch of <unspecified> ended with: very short watch: core\/controller\/informer\.ts: Unexpected watch close - watch lasted less than a second and no items received$/);
  });

  it('ends a watch that receives nothing, not even a bookmark, for the idle timeout (a server gone silent), as a broken connection ends one', async () => {
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    const viaProxy = new RestClient({ ...adminConnection(plat), server: new URL(`https://127.0.0.1:${proxy.port}`) }, { watchIdleTimeoutMs: 300 });
    try {
      const events = viaProxy.watch(CSRS, { timeoutSeconds: 60 });
      await client.create(CSRS, baseCsr(fx, 'idle-1'));
      const first = await events.next();
      assert.equal(first.value?.type, 'ADDED');
      proxy.stall(); // the connection stays open; nothing arrives any more
      // Bounded: without the idle timeout the watch would wait on the dead connection for minutes.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('the watch is still waiting after 10s')), 10_000); });
      try {
        // A plain end, no error: the informer watches again from the last version it saw, without
        // a list and without a warning, as after a reset (the store may only have been quiet).
        const ended = Date.now();
        await Promise.race([(async () => { for (;;) { const r = await events.next(); if (r.done) break; } })(), bound]);
        assert.ok(Date.now() - ended >= 250, 'ended by the idle timeout, not at once');
      } finally {
        clearTimeout(timer);
      }
    } finally {
      viaProxy.close();
      await proxy.close();
    }
  });
});
