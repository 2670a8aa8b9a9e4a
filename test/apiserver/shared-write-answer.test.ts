// A write's answer is the very object its watch events carry (frozen, its JSON made once for the
// answer and every watch): the answer must still be that write's own, and text kept for a frozen
// object must never stand for an object that can change. Real LMDB, the generic store.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { goJsonEncode } from '../../core/api/go-json-marshal.js';
import type { ApiObject } from '../../core/api/meta.js';
import { createHooks } from '../../core/hooks.js';
import { ResourceStore } from '../../core/registry/store.js';
import { watchObjects, type WatchEvent } from '../../core/registry/watch.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage } from '../../core/storage/storage.js';
import { namespaceResource } from '../../plugins/core-resources/resources.js';
import { admin } from './direct-watch.js';

describe('a write answers with its watch event object', () => {
  let storage: Storage;
  let store: ResourceStore;
  before(async () => {
    storage = await openLmdbStorage({ path: fs.mkdtempSync(path.join(os.tmpdir(), 'plat-shared-answer-')) });
    store = new ResourceStore(namespaceResource, storage, { prefix: '/registry', hooks: createHooks() });
  });
  after(async () => { await storage?.close(); });

  it('create, update, delete: one frozen object each, the same JSON as a fresh encode, each its own', async () => {
    const stream = await watchObjects(store, '', { watch: true, allowWatchBookmarks: false, resourceVersion: String(await storage.currentRevision()) });
    const events = stream[Symbol.asyncIterator]();
    const next = async (): Promise<WatchEvent> => (await events.next()).value as WatchEvent;
    // Live before the writes (a replayed event is decoded from the log, another object).
    const first = next();
    await new Promise((resolve) => setImmediate(resolve));

    const created = await store.create(admin, { metadata: { name: 'shared', labels: { v: '1' } } } as ApiObject);
    const added = await first;
    const fresh = (o: ApiObject) => `${JSON.stringify(structuredClone(o))}\n`;
    const createdJson = goJsonEncode(created);
    assert.equal(added.object, created, 'the answer is the event object');
    assert.ok(Object.isFrozen(created) && Object.isFrozen(created.metadata) && Object.isFrozen(created.metadata.labels));
    assert.equal(createdJson, fresh(created));

    const updated = (await store.update(admin, 'shared', '', { ...structuredClone(created), metadata: { ...structuredClone(created.metadata), labels: { v: '2' } } })).object;
    const modified = await next();
    assert.equal(modified.object, updated);
    assert.notEqual(updated, created);
    assert.deepEqual([updated.metadata.labels?.['v'], created.metadata.labels?.['v']], ['2', '1']);
    assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.equal(goJsonEncode(updated), fresh(updated));
    assert.equal(goJsonEncode(created), createdJson, 'the first answer is not changed by the second write');

    const gone = await store.delete(admin, 'shared');
    const last = await next();
    assert.equal(last.object, gone.object);
    assert.equal(goJsonEncode(gone.object), fresh(gone.object));
    stream.close();
  });

  it('never keeps the text of an object that can change: get hands out an own, unfrozen copy', async () => {
    await store.create(admin, { metadata: { name: 'own' } } as ApiObject);
    const got = await store.get('', 'own');
    assert.ok(!Object.isFrozen(got));
    const before = goJsonEncode(got);
    got.metadata.labels = { changed: 'yes' };
    assert.notEqual(goJsonEncode(got), before);
    assert.match(goJsonEncode(got), /"changed":"yes"/);
  });
});
