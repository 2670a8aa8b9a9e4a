// apiserver_admission_controller_admission_duration_seconds, as upstream's WithControllerMetrics
// decorator observes each admission plugin: every tap of admitMutate (type admit) and
// admitValidate (type validate) that is an admission plugin's (`admissionName` says which: the
// name upstream gives it, or a third party's own) is timed, for the operations the plugin
// handles, rejected when it threw. Other taps of the phases (RBAC's escalation check, which
// upstream runs in its storage, not as an admission plugin) are left alone. The name is found once,
// when the tap is registered: a register interceptor, installed once per hook, which reaches taps
// made before it too.
import { performance } from 'node:perf_hooks';
import type * as tapable from 'tapable';
import type { AdmissionMetrics, StepType } from '../metrics/apiserver-admission.js';
import { aroundTap, type TapFn } from '../promise-taps.js';
import { HANDLED_OPERATIONS } from './plugins.js';
import type { AdmissionRequest } from './request.js';

type Phase = tapable.AsyncSeriesHook<[AdmissionRequest]>;
type AnyTap = Phase['taps'][number];

const instrumented = new WeakSet<object>();

export function instrumentAdmissionPlugins(hooks: { readonly admitMutate: Phase; readonly admitValidate: Phase }, metrics: AdmissionMetrics,
  admissionName: (tap: { readonly name: string; readonly stage?: number }) => string | undefined): void {
  for (const [hook, type] of [[hooks.admitMutate, 'admit'], [hooks.admitValidate, 'validate']] as const) {
    if (instrumented.has(hook)) continue;
    instrumented.add(hook);
    hook.intercept({
      register: (tap) => {
        const name = admissionName(tap);
        if (name === undefined) return tap;
        const handled = HANDLED_OPERATIONS.get(name);
        return timed(tap, (req, rejected, seconds) => {
          if (!handled || handled.has(req.operation)) metrics.controller(name, type as StepType, req.operation, rejected, seconds);
        });
      },
    });
  }
}

/** The tap, its every call observed with how it ended and how long it took (aroundTap's outcome). */
function timed(tap: AnyTap, observe: (req: AdmissionRequest, rejected: boolean, seconds: number) => void): AnyTap {
  const fn = tap.fn as TapFn;
  return {
    ...tap,
    fn: (...args: unknown[]): unknown => {
      const req = args[0] as AdmissionRequest;
      const start = performance.now();
      const since = () => (performance.now() - start) / 1000;
      return aroundTap(tap.type, fn, {
        settled: () => observe(req, false, since()),
        failed: (e) => { observe(req, true, since()); return e; },
      })(...args);
    },
  };
}
