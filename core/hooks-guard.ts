// A plugin that names a hook plat does not have (`host.hooks.admitValidat`) would otherwise get
// `undefined` and die on `Cannot read properties of undefined (reading 'tapPromise')`, which names
// neither the hook nor the fix. Reading an unknown hook name throws instead, naming the hook, the
// nearest one (a typo) and the list. The check sits in the prototype: the hooks themselves are
// own properties, read on every request without passing through it.
import { suggest } from './flags/suggest.js';

/** Names a caller may probe without being a plugin's mistake: awaiting, JSON, inspection. */
const PASS = new Set(['then', 'toJSON', 'constructor', 'inspect']);

export function guardHooks<T extends object>(hooks: T): Readonly<T> {
  const names = Object.keys(hooks);
  const missing = new Proxy(Object.prototype, {
    get(target, key, receiver) {
      if (typeof key === 'symbol' || key in target || PASS.has(key)) return Reflect.get(target, key, receiver);
      const hint = suggest(key, names);
      throw new TypeError(`host.hooks has no hook "${key}"${hint !== undefined ? ` (did you mean "${hint}"?)` : ''}; the hooks are ${names.join(', ')}`);
    },
  });
  return Object.freeze(Object.assign(Object.create(missing) as T, hooks));
}
