// The authorizer chain combined as upstream's union authorizer combines it: the first allow or
// deny decides, with its own reason; when nobody decides, the answer is no opinion with every
// reason the authorizers gave for theirs, one a line. The `authorize` hook bails at the first
// answer that is not undefined, so a no-opinion answer must not reach it: every tap is wrapped (a
// register interceptor, which also reaches taps made before it) to note the reason in the call's
// own list, the hook's second argument, and pass undefined on; a tap that throws is noted the
// same way, with its name, and passes on too. Callers go through `authorizeUnion`, which makes
// those lists and reads them.
import type * as tapable from 'tapable';
import { aggregate } from '../aggregate.js';
import { aroundTap } from '../around-tap.js';
import type { Attributes, Decision } from './attributes.js';

/** The reasons of the no-opinion answers of one call, in chain order. */
export type NoOpinionReasons = string[];

export type AuthorizeHook = tapable.AsyncSeriesBailHook<[Attributes, NoOpinionReasons], Decision | undefined>;

/** An authorizer (tap) that threw instead of answering. */
export interface TapFailure { readonly tap: string; readonly error: unknown }

/**
 * Nobody allowed or denied and at least one authorizer failed: upstream's union answers no opinion
 * with the aggregate of the errors, which a request then gets as 500 and an access review as its
 * status.evaluationError; `reason` is the no-opinion reasons, as upstream returns them beside the
 * error. The message is the errors' texts alone, as upstream's; `failures` names the taps for logs.
 */
export class AuthorizationError extends Error {
  constructor(readonly failures: readonly TapFailure[], readonly reason: string) {
    super(aggregate(failures.map((f) => errorText(f.error))));
    this.name = 'AuthorizationError';
  }

  /** "<tap>: <error>" for each failure, for a log line. */
  describe(): string[] {
    return this.failures.map((f) => `${f.tap}: ${errorText(f.error)}`);
  }
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Each call's failure list, found by its reasons list (the one argument every tap is handed). */
const failuresOf = new WeakMap<NoOpinionReasons, TapFailure[]>();

function passOn(d: Decision | undefined, reasons: NoOpinionReasons): Decision | undefined {
  if (d?.decision !== 'noOpinion') return d;
  if (d.reason) reasons.push(d.reason);
  return undefined;
}

const DECISIONS = new Set(['allow', 'deny', 'noOpinion']);

/**
 * Why `d` is no answer an authorizer may give, or undefined. A plugin's `{ decision: 'Allow' }` or
 * `true` used to end the chain as a silent deny: the bail hook stopped at it and nothing allowed.
 */
function decisionProblem(d: unknown): string | undefined {
  if (d === undefined || d === null) return undefined;
  const shape = "not a decision ({ decision: 'allow' | 'deny' | 'noOpinion', reason?: string }, or undefined)";
  if (typeof d !== 'object' || Array.isArray(d)) return `answered ${Array.isArray(d) ? 'a list' : `a ${typeof d}`}, ${shape}`;
  const { decision, reason } = d as { decision?: unknown; reason?: unknown };
  if (typeof decision !== 'string' || !DECISIONS.has(decision)) return `answered decision ${typeof decision === 'string' ? JSON.stringify(decision) : `of type ${typeof decision}`}, ${shape}`;
  if (reason !== undefined && typeof reason !== 'string') return `answered a reason of type ${typeof reason}, ${shape}`;
  return undefined;
}

/** Installed once on the hook by its owner (core/hooks.ts). */
export function collectNoOpinionReasons(hook: AuthorizeHook): void {
  hook.intercept({
    register: (tap) => {
      const failed = (args: unknown[], error: unknown): undefined => {
        // A call that did not come through authorizeUnion has no list: the error ends it, as before.
        const failures = failuresOf.get(args[1] as NoOpinionReasons);
        if (!failures) throw error;
        failures.push({ tap: tap.name, error });
        return undefined;
      };
      return aroundTap(tap, {
        // An answer that is no decision is that authorizer's error, as a throw is.
        answer: (args, d) => {
          const problem = decisionProblem(d);
          if (problem) return failed(args, new Error(problem));
          return d === null ? undefined : passOn(d as Decision | undefined, args[1] as NoOpinionReasons);
        },
        failed,
      });
    },
  });
}

/**
 * unionAuthzHandler.Authorize: the chain's decision, or no opinion with the reasons joined; an
 * authorizer that throws is passed over (the first allow or deny after it still decides), and
 * when nobody decides its error is thrown as an AuthorizationError.
 */
export async function authorizeUnion(hook: AuthorizeHook, attributes: Attributes): Promise<Decision | undefined> {
  const reasons: NoOpinionReasons = [];
  const failures: TapFailure[] = [];
  failuresOf.set(reasons, failures);
  const decided = await hook.promise(attributes, reasons);
  if (decided) return decided;
  if (failures.length) throw new AuthorizationError(failures, reasons.join('\n'));
  return reasons.length ? { decision: 'noOpinion', reason: reasons.join('\n') } : undefined;
}
