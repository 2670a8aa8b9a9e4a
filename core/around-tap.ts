// A tap seen through a register interceptor, whatever way it was made (tap, tapPromise, tapAsync):
// the owner of a hook rewrites what each tap answers and what it throws, so that one plugin's
// failure is recorded against its name and the chain goes on, as upstream's union authenticator
// and authorizer go on past a member's error.
import type * as tapable from 'tapable';

type AnyTap = tapable.Tap & { type: 'sync' | 'async' | 'promise'; fn: unknown };
type Callback = (err: unknown, result?: unknown) => void;

export interface Around {
  /** What the hook sees when the tap answered `result`. */
  answer(args: unknown[], result: unknown): unknown;
  /** What the hook sees when the tap threw `err` (or called back with it); may throw to end the call. */
  failed(args: unknown[], err: unknown): unknown;
}

export function aroundTap<T extends AnyTap>(tap: T, around: Around): T {
  const fn = tap.fn as (...args: unknown[]) => unknown;
  switch (tap.type) {
    case 'sync':
      return {
        ...tap,
        fn: (...args: unknown[]) => {
          let result: unknown;
          try { result = fn(...args); } catch (err) { return around.failed(args, err); }
          return around.answer(args, result);
        },
      };
    case 'promise':
      return {
        ...tap,
        fn: async (...args: unknown[]) => {
          let result: unknown;
          try { result = await fn(...args); } catch (err) { return around.failed(args, err); }
          return around.answer(args, result);
        },
      };
    default:
      return {
        ...tap,
        fn: (...all: unknown[]) => {
          const cb = all.pop() as Callback;
          let called = false;
          const finish = (threw: boolean, value: unknown) => {
            if (called) return;
            called = true;
            let out: unknown;
            try { out = threw ? around.failed(all, value) : around.answer(all, value); } catch (e) { cb(e); return; }
            cb(null, out);
          };
          try {
            fn(...all, (err: unknown, result?: unknown) => finish(Boolean(err), err ? err : result));
          } catch (err) {
            // Thrown by the rest of the chain, which the callback ran: not this tap's failure.
            if (called) throw err;
            finish(true, err);
          }
        },
      };
  }
}
