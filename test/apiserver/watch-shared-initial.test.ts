// Watches from version 0 share the objects of their initial state (frozen, their JSON made once),
// as the watch cache's watchers share its objects: each used to hold its own decoded copy of the
// whole store, so clients that stopped reading multiplied it. Real LMDB, the generic store.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../core/api/meta.js';
import { createHooks } from '../../core/hooks.js';
import { ResourceStore } from '../../core/registry/store.js';
import { watchObjects, type WatchEvent, type WatchStream } from '../../core/registry/watch.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage } from '../../core/storage/storage.js';
import { namespaceResource } from '../../plugins/core-resources/resources.js';
import { admin } from './direct-watch.js';

async function initial(stream: WatchStream, n: number): Promise<ApiObject[]> {
  const events = stream[Symbol.asyncIterator]();
  const out: ApiObject[] = [];
  while (out.length < n) out.push(((await events.next()).value as WatchEvent).object as ApiObject);
  stream.close();
  return out;
}

describe('the initial state of watches from version 0', () => {
  let storage: Storage;
  let store: ResourceStore;
  before(async () => {
    storage = await openLmdbStorage({ path: fs.mkdtempSync(path.join(os.tmpdir(), 'plat-shared-initial-')) });
    store = new ResourceStore(namespaceResource, storage, { prefix: '/registry', hooks: createHooks() });
    for (const name of ['si-a', 'si-b', 'si-c']) await store.create(admin, { metadata: { name, labels: { k: name } } } as ApiObject);
  });
  after(async () => { await storage?.close(); });

  it('is one frozen object per key and revision for every watch, and a new one once the key changes', async () => {
    const zero = { watch: true, allowWatchBookmarks: false, resourceVersion: '0' } as const;
    const [one, two] = await Promise.all([watchObjects(store, '', zero), watchObjects(store, '', zero)]);
    const [first, second] = await Promise.all([initial(one, 3), initial(two, 3)]);
    for (let i = 0; i < 3; i++) {
      assert.equal(first[i], second[i], first[i]!.metadata.name);
      assert.ok(Object.isFrozen(first[i]) && Object.isFrozen(first[i]!.metadata.labels), 'frozen to its leaves');
    }
    const { object: changed } = await store.update(admin, 'si-a', '', { ...structuredClone(first[0]!), metadata: { ...structuredClone(first[0]!.metadata), labels: { k: 'changed' } } });
    const [after] = await initial(await watchObjects(store, '', zero), 1);
    assert.notEqual(after, first[0]);
    assert.deepEqual([after!.metadata.labels?.['k'], after!.metadata.resourceVersion], ['changed', changed.metadata.resourceVersion]);
    assert.equal(first[0]!.metadata.labels?.['k'], 'si-a', 'the object an older watch holds is unchanged');
  });
});
