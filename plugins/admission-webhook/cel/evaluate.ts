// Evaluating a webhook's match conditions for one admission request, with upstream's outcome
// rules (matchconditions/matcher.go): any condition false skips the webhook; otherwise any
// error fails (failurePolicy Fail) or skips (Ignore); otherwise the webhook is called.
import { cel } from '../../../core/cel-modules.js';
import { newAuthorizer, type AuthorizerSession } from './authz-library.js';
import { toCel, type CelBindings } from './bindings.js';
import { compileMatchCondition } from './compile.js';

/** Rounds of "evaluate, then ask the authorizer what was pending" before giving up. */
const MAX_AUTHORIZATION_ROUNDS = 8;

export interface MatchContext {
  readonly object: unknown;
  readonly oldObject: unknown;
  /** The AdmissionRequest as CEL sees it (no object, oldObject or options). */
  readonly request: Record<string, unknown>;
  readonly session: AuthorizerSession;
  /** The request's own resource, for `authorizer.requestResource`. */
  readonly requestResource: { group: string; resource: string; subresource: string; namespace: string; name: string };
  /** Answers every pending check of the session. */
  resolvePending(): Promise<void>;
}

export type MatchResult = { readonly matches: true } | { readonly matches: false; readonly failedCondition?: string } | { readonly error: string };

async function evaluateOne(expression: string, ctx: MatchContext, bindings: () => CelBindings): Promise<boolean | string> {
  const compiled = compileMatchCondition(expression.trim());
  if ('error' in compiled) return `expression '${expression}' resulted in error: ${compiled.error}`;
  for (let round = 0; round < MAX_AUTHORIZATION_ROUNDS; round++) {
    const result = compiled.program(bindings());
    if (ctx.session.pending.size > 0) { await ctx.resolvePending(); continue; }
    if (cel().isCelError(result)) return `expression '${expression}' resulted in error: ${result.message}`;
    if (typeof result !== 'boolean') return `expression '${expression}' resulted in error: no such overload: expression did not evaluate to a bool`;
    return result;
  }
  return `expression '${expression}' resulted in error: more than ${MAX_AUTHORIZATION_ROUNDS} rounds of authorization checks`;
}

export async function evaluateMatchConditions(conditions: readonly { name?: string; expression?: string }[], failurePolicy: string,
  ctx: MatchContext): Promise<MatchResult> {
  const object = toCel(ctx.object);
  const oldObject = toCel(ctx.oldObject);
  const request = toCel(ctx.request);
  const bindings = (): CelBindings => ({ object, oldObject, request, authorizer: newAuthorizer(ctx.session, ctx.requestResource) as never });
  const errors: string[] = [];
  for (const c of conditions) {
    const r = await evaluateOne(c.expression ?? '', ctx, bindings);
    if (r === false) return { matches: false, ...(c.name ? { failedCondition: c.name } : {}) };
    if (typeof r === 'string') errors.push(r);
  }
  if (errors.length === 0) return { matches: true };
  if (failurePolicy === 'Ignore') return { matches: false };
  // utilerrors.NewAggregate: one error as is, several in brackets.
  return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
