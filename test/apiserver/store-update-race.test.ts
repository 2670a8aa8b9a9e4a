// An update whose compare-and-swap loses to another writer reads the object again, as etcd3's
// GuaranteedUpdate does: deleted meanwhile is 404 NotFound (never "the object has been modified"
// for an object that is gone), or the uid precondition's 409 for an object that names its uid, written meanwhile is 409 for a caller who pinned the version and
// a retry for one who did not. Real LMDB; the other writer steps in between the read and the write.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isStatusError } from '../../core/api/errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import { createHooks } from '../../core/hooks.js';
import { ResourceStore } from '../../core/registry/store.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import type { Storage } from '../../core/storage/storage.js';
import { namespaceResource } from '../../plugins/core-resources/resources.js';
import { admin } from './direct-watch.js';

describe('an update that loses its compare-and-swap', () => {
  let storage: Storage;
  let store: ResourceStore;
  /** Runs once, right before the store's next storage write. */
  let meddle: (() => Promise<void>) | undefined;
  before(async () => {
    storage = await openLmdbStorage({ path: fs.mkdtempSync(path.join(os.tmpdir(), 'plat-update-race-')) });
    const racing = new Proxy(storage, {
      get(target, prop) {
        if (prop === 'update') {
          return async (...args: Parameters<Storage['update']>) => {
            const m = meddle;
            meddle = undefined;
            await m?.();
            return target.update(...args);
          };
        }
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    store = new ResourceStore(namespaceResource, racing, { prefix: '/registry', hooks: createHooks() });
  });
  after(async () => { await storage?.close(); });

  const ns = async (name: string): Promise<ApiObject> => store.create(admin, { metadata: { name } } as ApiObject);
  /** A namespace's DELETE only marks it: finalized too (no spec finalizers left), it is gone. */
  const removeNamespace = async (name: string): Promise<void> => {
    await store.delete(admin, name);
    await store.update(admin, name, 'finalize', (cur) => ({ ...cur, spec: {} }));
  };
  const labelled = (o: ApiObject, v: string): ApiObject => ({ ...o, metadata: { ...o.metadata, labels: { v } } });
  const failure = async (p: Promise<unknown>) => {
    try { await p; } catch (e) { if (isStatusError(e)) return { code: e.status.code, reason: e.status.reason, message: e.status.message }; throw e; }
    assert.fail('the update succeeded');
  };

  it('deleted meanwhile: 404 NotFound for a pinned update', async () => {
    const { uid: _uid, ...meta } = (await ns('gone')).metadata;
    meddle = () => removeNamespace('gone');
    assert.deepEqual(await failure(store.update(admin, 'gone', '', labelled({ metadata: meta }, 'x'))), { code: 404, reason: 'NotFound', message: 'namespaces "gone" not found' });
  });

  it('deleted meanwhile: the uid precondition fails for an update whose object names one', async () => {
    const o = await ns('gone-uid');
    meddle = () => removeNamespace('gone-uid');
    assert.deepEqual(await failure(store.update(admin, 'gone-uid', '', labelled(o, 'x'))), {
      code: 409, reason: 'Conflict',
      message: `Operation cannot be fulfilled on namespaces "gone-uid": StorageError: invalid object, Code: 4, Key: /registry/namespaces/gone-uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${o.metadata.uid}, UID in object meta: `,
    });
  });

  it('written meanwhile: 409 Conflict for a pinned update', async () => {
    const o = await ns('busy');
    meddle = async () => { await store.update(admin, 'busy', '', (cur) => labelled(cur, 'other')); };
    const r = await failure(store.update(admin, 'busy', '', labelled(o, 'mine')));
    assert.equal(r.code, 409);
    assert.match(r.message ?? "", /the object has been modified/);
  });

  it('written meanwhile: retried for an update that pinned nothing', async () => {
    await ns('retried');
    meddle = async () => { await store.update(admin, 'retried', '', (cur) => labelled(cur, 'other')); };
    const r = await store.update(admin, 'retried', '', (cur) => labelled(cur, 'mine'));
    assert.equal(r.object.metadata.labels?.['v'], 'mine');
  });
});
