// Which admission plugin a request is in, so that the one that threw can be named in the log.
// Requests pass the phases concurrently, so no "last tap" variable will do: each tap is wrapped
// (a register interceptor, which also reaches taps made before it) to note its name against the
// request object it is handed. The phases are series hooks: the first throw stops a phase, so the
// last tap a request entered is the one that threw.
import type tapable from 'tapable';

type Traced = Pick<tapable.AsyncSeriesHook<[object]>, 'intercept'>;

const tracers = new WeakMap<Traced, (req: object) => string | undefined>();

/** The name of the last tap of `hook` that `req` was handed to; one interceptor per hook. */
export function runningTap(hook: Traced): (req: object) => string | undefined {
  let tracer = tracers.get(hook);
  if (tracer) return tracer;
  const entered = new WeakMap<object, string>();
  hook.intercept({
    register: (tap) => {
      const fn = tap.fn as (req: object, ...rest: unknown[]) => unknown;
      return { ...tap, fn: (req: object, ...rest: unknown[]) => { entered.set(req, tap.name); return fn(req, ...rest); } };
    },
  });
  tracer = (req) => entered.get(req);
  tracers.set(hook, tracer);
  return tracer;
}
