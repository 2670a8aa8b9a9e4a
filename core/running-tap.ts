// Which plugin a call of a hook is in, so that the one that threw, hung or answered badly can be
// named: admission phases (the plugin that refused or failed a request) and a signerName's hook
// (the signer that threw, did not answer, or answered garbage). Calls run concurrently, so no
// "last tap" variable will do: each tap is wrapped (a register interceptor, which also reaches
// taps made before it) to note its name against the argument object it is handed. Both kinds are
// series hooks: the first throw, or in a bail hook the first answer, ends the call, so the last
// tap a call entered is the one that threw, answered, or is still running.
import type * as tapable from 'tapable';

/** Any hook, whatever its arguments and result: only its register interceptor is used. */
type AnyTap = tapable.AsyncSeriesHook<[object]>['taps'][number];
interface Traced { intercept(interceptor: { register: (tap: AnyTap) => AnyTap }): void }

const tracers = new WeakMap<Traced, (arg: object) => string | undefined>();

/** The name of the last tap of `hook` that `arg` was handed to; one interceptor per hook. */
export function runningTap(hook: Traced): (arg: object) => string | undefined {
  let tracer = tracers.get(hook);
  if (tracer) return tracer;
  const entered = new WeakMap<object, string>();
  hook.intercept({
    register: (tap) => {
      const fn = tap.fn as (arg: object, ...rest: unknown[]) => unknown;
      return { ...tap, fn: (arg: object, ...rest: unknown[]) => { entered.set(arg, tap.name); return fn(arg, ...rest); } };
    },
  });
  tracer = (arg) => entered.get(arg);
  tracers.set(hook, tracer);
  return tracer;
}
