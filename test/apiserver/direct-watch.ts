// One resource's watch handler served in-process over plain HTTP/1.1 on real LMDB: for tests that
// drive the raw response (a client that stops reading, bookmarks on a short interval).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { createHooks } from '../../core/hooks.js';
import type { ListOptions } from '../../core/registry/list-options.js';
import { ResourceStore } from '../../core/registry/store.js';
import { inProcessServer, type InProcessSocket } from '../../core/server/in-process.js';
import type { RequestInfo } from '../../core/server/request-info.js';
import type { RestDeps } from '../../core/server/rest.js';
import { serveWatch } from '../../core/server/watch-handler.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage } from '../../core/storage/storage.js';
import { namespaceResource } from '../../plugins/core-resources/resources.js';
import { recordingLogger } from '../controller-manager/support.js';

export interface DirectWatch {
  readonly storage: Storage;
  /** The Namespace store the watch serves. */
  readonly store: ResourceStore;
  readonly lines: string[];
  /** Opens `GET /api/v1/namespaces?watch=true` with these options; the socket starts paused when asked. */
  open(o: Partial<ListOptions>, paused?: boolean): Promise<InProcessSocket>;
  close(): Promise<void>;
}

const info = {
  isResourceRequest: true, path: '/api/v1/namespaces', verb: 'watch', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1',
  namespace: '', resource: 'namespaces', subresource: '', name: '', parts: ['namespaces'],
  fieldSelector: '', labelSelector: '',
} satisfies RequestInfo;

export const admin = { user: { name: 'admin', groups: ['system:masters'] }, namespace: '', dryRun: false, warnings: [] };

export async function directWatch(storageOptions: { watchBufferLimit?: number }, deps: Partial<RestDeps> = {}): Promise<DirectWatch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-direct-watch-'));
  const storage = await openLmdbStorage({ path: dir, ...storageOptions });
  const store = new ResourceStore(namespaceResource, storage, { prefix: '/registry', hooks: createHooks() });
  const { logger, lines } = recordingLogger();
  const shutdown = new AbortController();
  let options: Partial<ListOptions> = {};
  const app = new Koa();
  app.use((ctx) => serveWatch(ctx, store, info, { watch: true, allowWatchBookmarks: false, timeoutSeconds: 60, ...options },
    { now: () => new Date(), minRequestTimeoutSeconds: 60, shutdown: shutdown.signal, logger, ...deps }, (obj) => obj));
  const server = inProcessServer(app, 1 << 20);
  const sockets: InProcessSocket[] = [];
  return {
    storage, store, lines,
    async open(o, paused = false) {
      options = o;
      const socket = server.dial([]);
      sockets.push(socket);
      if (paused) socket.pause();
      socket.write('GET /api/v1/namespaces?watch=true HTTP/1.1\r\nHost: plat\r\n\r\n');
      // Headers flushed: the watch is open.
      await new Promise<void>((resolve) => socket.once('readable', () => resolve()));
      return socket;
    },
    async close() {
      for (const s of sockets) s.destroy();
      shutdown.abort();
      server.close();
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
