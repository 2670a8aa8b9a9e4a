// Periodic bookmarks carry how far the watch has come in the whole store, not the revision of the
// watched resource's last event: a quiet watch in a store where other resources keep changing (the
// controller manager's Leases) still advances, so after compaction its client resumes from the
// bookmark instead of getting 410 and listing again every few minutes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, directWatch, type DirectWatch } from './direct-watch.js';
import { watchObjects } from '../../core/registry/watch.js';

interface Event { type: string; object: { metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> } } }

/** Watch events read from a chunked response, as they arrive; `ended` once its last chunk came. */
function events(socket: NodeJS.ReadableStream): Event[] & { ended?: boolean } {
  const out: Event[] & { ended?: boolean } = [];
  let text = '';
  socket.on('data', (b: Buffer) => {
    text += b.toString('latin1');
    if (/(^|\r\n)0\r\n\r\n$/.test(text)) out.ended = true;
    for (const m of text.matchAll(/^(\{"type".*\})$/gm)) out.push(JSON.parse(m[1]!) as Event);
    text = text.slice(text.lastIndexOf('\n') + 1);
  });
  return out;
}

async function until<T>(what: string, f: () => T | undefined, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('watch bookmarks', () => {
  let w: DirectWatch;
  before(async () => { w = await directWatch({}, { bookmarkIntervalMs: 30 }); });
  after(() => w?.close());

  it('a quiet watch\'s bookmark carries the store\'s revision; resuming from it after compaction is not 410', async () => {
    const got = events(await w.open({ allowWatchBookmarks: true }));
    await w.store.create(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quiet' } });
    await until('the ADDED event', () => got.find((e) => e.type === 'ADDED'));
    // Writes elsewhere in the store (another resource's keys).
    for (let i = 0; i < 5; i++) await w.storage.create(`/registry/leases/kube-system/l${i}`, { i });
    const current = await w.storage.currentRevision();
    const bookmark = await until('a bookmark at the current revision', () =>
      got.find((e) => e.type === 'BOOKMARK' && e.object.metadata.resourceVersion === String(current)));
    assert.equal(bookmark.object.metadata.name, undefined);
    // Compaction past the namespace's own revision: a watch from the bookmark still works.
    await w.storage.compact(current);
    const resumed = await watchObjects(w.store, '', { watch: true, allowWatchBookmarks: true, resourceVersion: String(current), timeoutSeconds: 1 } as never);
    try {
      const it = resumed[Symbol.asyncIterator]();
      const next = it.next();
      await w.store.create(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'later' } });
      const ev = (await next).value;
      assert.equal(ev?.type, 'ADDED', `resumed watch gave ${JSON.stringify(ev)}`);
    } finally {
      resumed.close();
    }
  });

  it('no bookmark interrupts the initial events of a client that reads slowly: the first one follows them all', async () => {
    const names = Array.from({ length: 400 }, (_, i) => `init-${i}`);
    for (const name of names) await w.store.create(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const socket = await w.open({ allowWatchBookmarks: true }, true);
    // Several bookmark intervals pass while the initial events wait for the client, and the store
    // moves on (a bookmark says nothing until it does).
    await w.storage.create('/registry/leases/kube-system/slow-reader', {});
    await new Promise((r) => setTimeout(r, 150));
    const got = events(socket);
    socket.resume();
    await until('a bookmark', () => got.find((e) => e.type === 'BOOKMARK'));
    const first = got.findIndex((e) => e.type === 'BOOKMARK');
    const before = new Set(got.slice(0, first).map((e) => e.object.metadata.name));
    assert.deepEqual(names.filter((n) => !before.has(n)), [], 'initial events after the first bookmark');
  });
});

describe('watch bookmarks: when', () => {
  const opened: DirectWatch[] = [];
  after(async () => { for (const w of opened) await w.close(); });

  it('one goes out 2 s before the watch times out, however long the interval', async () => {
    const w = await directWatch({});
    opened.push(w);
    const got = events(await w.open({ allowWatchBookmarks: true, timeoutSeconds: 3 }));
    await w.storage.create('/registry/leases/kube-system/elsewhere', {});
    const current = await w.storage.currentRevision();
    await until('the end of the watch', () => got.ended || undefined, 1000);
    const bookmarks = got.filter((e) => e.type === 'BOOKMARK');
    assert.deepEqual(bookmarks.map((e) => e.object.metadata.resourceVersion), [String(current)]);
  });

  it('once the store has moved past the watch\'s start, one at every interval, repeating the revision while it moves no further', async () => {
    const w = await directWatch({}, { bookmarkIntervalMs: 30 });
    opened.push(w);
    const got = events(await w.open({ allowWatchBookmarks: true, timeoutSeconds: 5 }));
    await w.storage.create('/registry/leases/kube-system/once', {});
    const current = String(await w.storage.currentRevision());
    // A client presumes a silent watch dead (rest-client.ts): a quiet store must not silence it.
    await until('four bookmarks', () => (got.filter((e) => e.type === 'BOOKMARK').length >= 4 || undefined));
    assert.deepEqual(new Set(got.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)), new Set([`BOOKMARK ${current}`]));
  });

  it('none while the store has come no further than the watch\'s start', async () => {
    const w = await directWatch({}, { bookmarkIntervalMs: 30 });
    opened.push(w);
    await w.store.create(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'still' } });
    const got = events(await w.open({ allowWatchBookmarks: true, timeoutSeconds: 1 }));
    await until('the end of the watch', () => got.ended || undefined, 1000);
    assert.deepEqual(got.map((e) => e.type), ['ADDED']);
  });
});
