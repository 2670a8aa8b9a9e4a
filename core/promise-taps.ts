// Taps whose function returns a Promise, made with `tap` (`hooks.admitValidate.tap('X', async (req) =>
// { throw ... })`): tapable runs a sync tap's function and takes its result as the answer, so the
// Promise is never awaited. On an async hook the refusal it carries was lost (the request went on
// as admitted, the signer's answer was a Promise) and its rejection, unhandled, ended the whole
// process; on a sync hook its work came after the hook had returned. tapable cannot tell such a
// tap from a sync one when it is made, only when it answers, so every sync tap is wrapped:
//   - on an async hook it becomes a callback tap that answers at once when its function does, and
//     once the Promise settles when it returns one: the same outcome as tapPromise, without
//     adding a turn of the event loop for the taps that are sync;
//   - on a sync hook a returned Promise is an error that names the hook (its rejection is caught,
//     so that it does not end the process unnamed): that work belongs in a `start` tap.
// Installed by the hooks' owner before any other register interceptor, so that those (tracing,
// the union authorizer's answer handling) see the tap as it runs.
import type * as tapable from 'tapable';

/** Any hook's tap, whatever its arguments and result. */
type AnyTap = tapable.AsyncSeriesHook<[object]>['taps'][number];
type Callback = (err: unknown, result?: unknown) => void;
interface Interceptable { intercept(interceptor: { register: (tap: AnyTap) => AnyTap }): void }

export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

export type TapFn = (...args: unknown[]) => unknown;

/** What aroundTap tells of a call: it settled, or it failed (`failed` returns the error passed on). */
export interface TapOutcome {
  settled(): void;
  failed(error: unknown): unknown;
}

/**
 * `fn`, a tap's function of `type` as registered, called as tapable calls it, with `outcome` told
 * how the call ended: a throw, a rejection or a callback's error goes through `failed`. A promise
 * tap that returns no Promise is handed back as it is, for tapable to refuse ("did not return promise").
 */
export function aroundTap(type: AnyTap['type'], fn: TapFn, outcome: TapOutcome): TapFn {
  if (type === 'promise') {
    return (...args) => {
      let result: unknown;
      try {
        result = fn(...args);
      } catch (e) {
        throw outcome.failed(e);
      }
      if (!isThenable(result)) {
        outcome.settled();
        return result;
      }
      return Promise.resolve(result).then((value) => { outcome.settled(); return value; }, (e: unknown) => { throw outcome.failed(e); });
    };
  }
  if (type === 'async') {
    return (...args) => {
      const callback = args.pop() as Callback;
      let called = false;
      try {
        fn(...args, (err: unknown, result?: unknown) => {
          called = true;
          if (err === undefined || err === null) outcome.settled();
          callback(err === undefined || err === null ? err : outcome.failed(err), result);
        });
      } catch (e) {
        // Thrown by the rest of the chain, which the callback ran: not this tap's failure, and
        // calling back a second time would run the chain's end twice.
        if (called) throw e;
        callback(outcome.failed(e));
      }
    };
  }
  return (...args) => {
    try {
      const result = fn(...args);
      outcome.settled();
      return result;
    } catch (e) {
      throw outcome.failed(e);
    }
  };
}

/** Every sync tap made on `hook` from now on gets what `wrap` makes of its function. */
function wrapSyncTaps(hook: Interceptable, wrap: (fn: TapFn) => Partial<AnyTap>): void {
  hook.intercept({ register: (tap) => (tap.type === 'sync' ? { ...tap, ...wrap(tap.fn as TapFn) } : tap) });
}

/** On an async hook: a sync tap that returns a Promise is waited for, as a tapPromise tap is. */
export function awaitPromiseTaps(hook: Interceptable): void {
  wrapSyncTaps(hook, (fn) => ({
    type: 'async',
    fn: (...all: unknown[]) => {
      const cb = all.pop() as Callback;
      let result: unknown;
      try {
        result = fn(...all);
      } catch (err) {
        cb(err);
        return;
      }
      if (!isThenable(result)) {
        cb(null, result);
        return;
      }
      // A falsy rejection gets tapable's own wording for a tapPromise tap (core/thrown-message.ts reads it).
      result.then((value) => cb(null, value), (err: unknown) => cb(err || new Error(`Tap function (tapPromise) rejects "${String(err)}" value`)));
    },
  }));
}

/** On a sync hook: a tap that returns a Promise throws, naming the hook. */
export function refusePromiseTaps(hook: Interceptable, hookName: string): void {
  wrapSyncTaps(hook, (fn) => ({
    fn: (...args: unknown[]) => {
      const result = fn(...args);
      if (!isThenable(result)) return result;
      result.then(undefined, () => {});
      throw new Error(`hooks.${hookName} is synchronous: the tap returned a Promise, which nothing waits for (its work would come after the hook, its errors unnamed); do asynchronous work in a start tap`);
    },
  }));
}
