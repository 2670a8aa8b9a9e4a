// Upstream validates every option before it builds anything (KubeControllerManagerOptions.Validate
// appends each sub-options' Validate errors and returns one utilerrors.NewAggregate), then reads
// files and kubeconfigs (Config), stopping at the first error there. plat's plugins validate in
// configure taps at the VALIDATION_STAGES, whose options errors (core/located-problems.ts) boot
// gathers here: all of them make one error, thrown before any later configure tap runs.
import type { SyncHook } from 'tapable';
import { isOptionsError, OptionsError, type LocatedProblems } from './located-problems.js';

/**
 * Configure-tap stages of options validation, in the order upstream's Validate takes the options:
 * the generic controller-manager options (resource lock, --controllers) first, then the
 * controllers' own options (csrsigning's files), then secure serving, authentication and
 * authorization, then (the API server's) API enablement. Every stage here runs before the default
 * stage 0.
 */
export const VALIDATION_STAGES = {
  generic: -3000,
  controllers: -2000,
  serving: -1000,
  apiEnablement: -500,
} as const;

const STAGES: ReadonlySet<number> = new Set(Object.values(VALIDATION_STAGES));
const validating = (stage: number | undefined) => stage !== undefined && STAGES.has(stage);

export interface OptionsValidation {
  /** The gathered error, if any tap found problems; call after the hook ran (no later tap may have). */
  error(): OptionsError | undefined;
}

/**
 * Wraps the hook's taps (those tapped so far: call after the plugins applied): a validation tap's
 * options error is kept and the next tap runs; the first tap past the validation stages throws
 * what was kept instead of running. Taps are changed in place, so other interceptors that know a
 * tap by its object (core/external-plugins.ts) still do.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function gatherOptionsErrors(hook: SyncHook<any>): OptionsValidation {
  const groups: LocatedProblems[] = [];
  const gathered = () => (groups.length > 0 ? new OptionsError(groups) : undefined);
  hook.intercept({
    register: (tap) => {
      const fn = tap.fn as (...args: unknown[]) => unknown;
      if (validating(tap.stage)) {
        tap.fn = (...args: unknown[]) => {
          try {
            return fn(...args);
          } catch (e) {
            if (!isOptionsError(e)) throw e;
            groups.push(...e.groups);
            return undefined;
          }
        };
      } else {
        tap.fn = (...args: unknown[]) => {
          const error = gathered();
          if (error) throw error;
          return fn(...args);
        };
      }
      return tap;
    },
  });
  return { error: gathered };
}
