// A tap's `name` is the plugin author's free choice (`host.hooks.start.tapPromise('wait-for-peer',
// ...)` in plugin "MySigner"), so a message naming only the tap named something found nowhere in
// the config file. Each tap is marked with the plugin that made it: the one whose apply, or whose
// configure, start or ready tap, was running. Only while they run synchronously (a tap made after
// an await is named by its own name): following their awaits would take AsyncLocalStorage, whose
// promise hooks (Node 20) would slow every promise of the server for the process's lifetime.
// The mark is a symbol property, which the interceptors that copy a tap (`{ ...tap, fn }`) keep.
const OWNER = Symbol('plat.tapOwner');
let running: string | undefined;

interface Named { readonly name: string; readonly [OWNER]?: string }
type AnyFn = (...args: unknown[]) => unknown;

/** Runs `fn` as plugin `plugin`: the taps it makes before it returns (or first awaits) are the plugin's. */
export function asPlugin<T>(plugin: string, fn: () => T): T {
  const outer = running;
  running = plugin;
  try {
    return fn();
  } finally {
    running = outer;
  }
}

/** A register interceptor: marks the tap with the plugin running, if any. */
export function markOwner<T extends object>(tap: T): T {
  const owner = running;
  return owner === undefined || OWNER in tap ? tap : { ...tap, [OWNER]: owner };
}

/** A register interceptor: the tap's function runs as its plugin, so the taps it makes are the plugin's. */
export function runAsOwner<T extends { readonly name: string; fn: unknown }>(tap: T): T {
  const owner = (tap as Named)[OWNER];
  if (owner === undefined) return tap;
  const fn = tap.fn as AnyFn;
  return { ...tap, fn: (...args: unknown[]) => asPlugin(owner, () => fn(...args)) };
}

/** The plugin that made `tap` (its own name when unknown), and the tap's name when it differs. */
export function ownerOf(tap: { readonly name: string }): { plugin: string; tap?: string } {
  const owner = (tap as Named)[OWNER];
  return owner === undefined || owner === tap.name ? { plugin: tap.name } : { plugin: owner, tap: tap.name };
}
