// Watch events are shared by every watcher of a key range, so their values are frozen once instead
// of copied per watcher: a consumer that wants to change one copies it first (store.toObject does).
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
