// The objects a watch starts with (its initial state), shared by every watch that reads the same
// key at the same revision, as the watch cache hands each watcher pointers to one cached object:
// without it each watch from version 0 decoded and kept its own copy of the store, so twenty
// clients that stopped reading held twenty copies (a tester: 1.3 GB for 30,000 CSRs). Shared, the
// objects are frozen, and their JSON is made once for all (goJsonCompact keeps it for a frozen
// object). An entry lives as long as some watch still holds its object.
import type { ApiObject } from '../api/meta.js';
import { deepFreeze } from '../storage/freeze.js';
import type { KeyValue } from '../storage/storage.js';
import type { ResourceStore } from './store.js';

type Objects = Map<string, WeakRef<ApiObject>>;

const byStore = new WeakMap<ResourceStore, Objects>();
const forget = new FinalizationRegistry<{ objects: Objects; id: string }>(({ objects, id }) => {
  // A later object of the same id may have taken the entry meanwhile.
  if (objects.get(id)?.deref() === undefined) objects.delete(id);
});

/** The shared, frozen API object of `kv` (a value storage handed over: it is frozen in place). */
export function initialObject(store: ResourceStore, kv: KeyValue): ApiObject {
  let objects = byStore.get(store);
  if (!objects) {
    objects = new Map();
    byStore.set(store, objects);
  }
  // A key's modRevision names one write of it: the same content for every reader.
  const id = `${kv.modRevision}\u0000${kv.key}`;
  const known = objects.get(id)?.deref();
  if (known) return known;
  const obj = store.toSharedObject({ value: deepFreeze(kv.value), modRevision: kv.modRevision });
  objects.set(id, new WeakRef(obj));
  forget.register(obj, { objects, id });
  return obj;
}
