// Which plugin a call of a hook is in, so that the one that threw, hung or answered badly can be
// named: admission phases (the plugin that refused or failed a request) and a signerName's hook
// (the signer that threw, did not answer, or answered garbage). Calls run concurrently, so no
// "last tap" variable will do: each tap is wrapped (a register interceptor, which also reaches
// taps made before it) to note its name against the argument object it is handed. Both kinds are
// series hooks: the first throw, or in a bail hook the first answer, ends the call, so the last
// tap a call entered is the one that threw, answered, or is still running.
import type * as tapable from 'tapable';
import { ownerOf } from './tap-owners.js';

/** Any hook, whatever its arguments and result: only its register interceptor is used. */
type AnyTap = tapable.AsyncSeriesHook<[object]>['taps'][number];
interface Traced { intercept(interceptor: { register: (tap: AnyTap) => AnyTap }): void }

const tracers = new WeakMap<Traced, (arg: object) => AnyTap | undefined>();

/** The last tap of `hook` that `arg` was handed to; one interceptor per hook. */
function tracer(hook: Traced): (arg: object) => AnyTap | undefined {
  let found = tracers.get(hook);
  if (found) return found;
  const entered = new WeakMap<object, AnyTap>();
  hook.intercept({
    register: (tap) => {
      const fn = tap.fn as (arg: object, ...rest: unknown[]) => unknown;
      return { ...tap, fn: (arg: object, ...rest: unknown[]) => { entered.set(arg, tap); return fn(arg, ...rest); } };
    },
  });
  found = (arg) => entered.get(arg);
  tracers.set(hook, found);
  return found;
}

/** The name of the last tap of `hook` that `arg` was handed to. */
export function runningTap(hook: Traced): (arg: object) => string | undefined {
  const traced = tracer(hook);
  return (arg) => traced(arg)?.name;
}

/**
 * The plugin that made the last tap of `hook` that `arg` was handed to, and that tap's name when
 * it differs (core/tap-owners.ts): the tap's owner must be marked before this hook's tracing is
 * installed, as the register interceptors see the tap in the order they were added.
 */
export function runningTapOwner(hook: Traced): (arg: object) => { plugin: string; tap?: string } | undefined {
  const traced = tracer(hook);
  return (arg) => { const tap = traced(arg); return tap && ownerOf(tap); };
}
