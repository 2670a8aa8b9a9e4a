// A watch client that stops reading: the server stops taking events for it, so they wait in the
// storage watch, which ends a watcher more than its buffer limit behind (the client watches again
// from the last revision it saw). Before, the server kept writing into the response, which grew
// without bound in the API server's memory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import { createHooks } from '../../core/hooks.js';
import { ResourceStore } from '../../core/registry/store.js';
import { inProcessServer, type InProcessSocket } from '../../core/server/in-process.js';
import type { RequestInfo } from '../../core/server/request-info.js';
import { serveWatch } from '../../core/server/watch-handler.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage } from '../../core/storage/storage.js';
import { namespaceResource } from '../../plugins/core-resources/resources.js';

const BUFFER_LIMIT = 50;
const OBJECTS = 1500;

describe('watch backpressure', () => {
  let dir: string;
  let storage: Storage;
  let store: ResourceStore;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-watch-bp-'));
    storage = await openLmdbStorage({ path: dir, watchBufferLimit: BUFFER_LIMIT });
    store = new ResourceStore(namespaceResource, storage, { prefix: '/registry', hooks: createHooks() });
  });
  after(async () => { await storage?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

  it('ends the watch of a client that stops reading once it is more than the buffer limit behind', async () => {
    const shutdown = new AbortController();
    const info = { isResourceRequest: true, path: '/api/v1/namespaces', verb: 'watch', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1',
      namespace: '', resource: 'namespaces', subresource: '', name: '', parts: ['namespaces'] } satisfies RequestInfo;
    const app = new Koa();
    app.use((ctx) => serveWatch(ctx, store, info, { watch: true, allowWatchBookmarks: false, sendInitialEvents: false, timeoutSeconds: 60 },
      { now: () => new Date(), minRequestTimeoutSeconds: 60, shutdown: shutdown.signal }));
    const server = inProcessServer(app, 1 << 20);
    const socket: InProcessSocket = server.dial([]);
    try {
      socket.pause();
      socket.write('GET /api/v1/namespaces?watch=true HTTP/1.1\r\nHost: plat\r\n\r\n');
      // Headers flushed: the watch is open (it starts from the current revision).
      await new Promise<void>((resolve) => socket.once('readable', () => resolve()));
      const user = { name: 'admin', groups: ['system:masters'] };
      for (let i = 0; i < OBJECTS; i++) {
        await store.create({ user, namespace: '', dryRun: false, warnings: [] }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${i}` } });
      }
      // Now read everything the server sent, until it ends the response (or, as before, never does).
      let text = '';
      socket.on('data', (b: Buffer) => { text += b.toString('latin1'); });
      socket.resume();
      const ended = await new Promise<boolean>((resolve) => {
        const check = setInterval(() => { if (text.endsWith('\r\n0\r\n\r\n')) { clearInterval(check); clearTimeout(give); resolve(true); } }, 20);
        const give = setTimeout(() => { clearInterval(check); resolve(false); }, 10_000);
      });
      const delivered = text.match(/"type":"ADDED"/g)?.length ?? 0;
      assert.ok(ended, `the watch is still open after ${delivered} of ${OBJECTS} events reached the client that did not read`);
      assert.ok(delivered < OBJECTS, `all ${OBJECTS} events were held for the client`);
      assert.ok(delivered > BUFFER_LIMIT, `${delivered} events delivered: the watch ended before the buffer filled`);
      // The events it did get are the first ones, in order, with nothing skipped.
      const names = [...text.matchAll(/"name":"(ns-\d+)"/g)].map((m) => m[1]);
      assert.deepEqual(names, Array.from({ length: names.length }, (_, i) => `ns-${i}`));
    } finally {
      socket.destroy();
      shutdown.abort();
      server.close();
    }
  });
});
