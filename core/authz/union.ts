// The authorizer chain combined as upstream's union authorizer combines it: the first allow or
// deny decides, with its own reason; when nobody decides, the answer is no opinion with every
// reason the authorizers gave for theirs, one a line. The `authorize` hook bails at the first
// answer that is not undefined, so a no-opinion answer must not reach it: every tap is wrapped (a
// register interceptor, which also reaches taps made before it) to note the reason in the call's
// own list, the hook's second argument, and pass undefined on. Callers go through
// `authorizeUnion`, which makes that list and reads it.
import type tapable from 'tapable';
import type { Attributes, Decision } from './attributes.js';

/** The reasons of the no-opinion answers of one call, in chain order. */
export type NoOpinionReasons = string[];

export type AuthorizeHook = tapable.AsyncSeriesBailHook<[Attributes, NoOpinionReasons], Decision | undefined>;

type AnyTap = AuthorizeHook['taps'][number];
type Callback = (err: unknown, result?: Decision) => void;

function passOn(d: Decision | undefined, reasons: NoOpinionReasons): Decision | undefined {
  if (d?.decision !== 'noOpinion') return d;
  if (d.reason) reasons.push(d.reason);
  return undefined;
}

/** Installed once on the hook by its owner (core/hooks.ts). */
export function collectNoOpinionReasons(hook: AuthorizeHook): void {
  hook.intercept({
    register: (tap: AnyTap): AnyTap => {
      const fn = tap.fn as (...args: unknown[]) => unknown;
      switch (tap.type) {
        case 'sync':
          return { ...tap, fn: (a: Attributes, r: NoOpinionReasons) => passOn(fn(a, r) as Decision | undefined, r) };
        case 'promise':
          return { ...tap, fn: async (a: Attributes, r: NoOpinionReasons) => passOn(await (fn(a, r) as Promise<Decision | undefined>), r) };
        default:
          return { ...tap, fn: (a: Attributes, r: NoOpinionReasons, cb: Callback) => fn(a, r, (err: unknown, d?: Decision) => cb(err, err ? undefined : passOn(d, r))) };
      }
    },
  });
}

/** unionAuthzHandler.Authorize: the chain's decision, or no opinion with the reasons joined. */
export async function authorizeUnion(hook: AuthorizeHook, attributes: Attributes): Promise<Decision | undefined> {
  const reasons: NoOpinionReasons = [];
  const decided = await hook.promise(attributes, reasons);
  if (decided) return decided;
  return reasons.length ? { decision: 'noOpinion', reason: reasons.join('\n') } : undefined;
}
