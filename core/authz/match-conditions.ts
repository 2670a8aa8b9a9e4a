// An authorization webhook's matchConditions: CEL expressions over `request`, the v1
// SubjectAccessReviewSpec, each of which must be true for the webhook to be asked. Parsing,
// planning and evaluation are @bufbuild/cel's; the static type check kube-apiserver's cel-go does
// when it loads the configuration is cel-check.ts, so an expression is refused at start-up, in
// cel-go's words, where upstream refuses it. What passes the check fails only at evaluation, as
// upstream's does (a missing field, a dyn value of the wrong type), where the error follows the
// webhook's failurePolicy.
import type { CelEnv, CelResult, parse } from '@bufbuild/cel';
import { cel, celExt, re2 } from '../cel-modules.js';
import { checkCondition } from './cel-check.js';
import type { SelectorAttributesWire } from './selector-attributes.js';
import type { SubjectAccessReviewSpec } from './subject-access-review.js';

/** upstream validation: at most this many conditions per webhook. */
export const MAX_MATCH_CONDITIONS = 64;

let env: CelEnv | undefined;

/** Built when the first condition is compiled: a role with no match conditions loads no CEL. */
function matchEnv(): CelEnv {
  if (env) return env;
  const { celEnv, celFunc, CelScalar, mapType } = cel();
  // cel-go declares matches both as a method and as a global function; @bufbuild/cel only the method.
  const globalMatches = celFunc('matches', [CelScalar.STRING, CelScalar.STRING], CelScalar.BOOL, (text, pattern) => re2().RE2JS.compile(pattern).test(text));
  return env = celEnv({ variables: { request: mapType(CelScalar.STRING, CelScalar.DYN) }, funcs: [...celExt().strings, globalMatches] });
}

export class MatchConditionError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'MatchConditionError';
  }
}

type Program = (ctx: { request: Record<string, unknown> }) => CelResult;
type Parsed = ReturnType<typeof parse>;

/** `ERROR: <input>:1:8: undefined field 'foo'` with cel-go's source line and caret under it. */
function located(expression: string, line: number, column: number, message: string): string {
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${source}\n | ${'.'.repeat(Math.max(0, column - 1))}^`;
}

function at(expression: string, offset: number, message: string): string {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  return located(expression, line, offset - before.lastIndexOf('\n'), message);
}

export interface CompiledCondition {
  readonly expression: string;
  readonly program: Program;
}

/** Compiles one expression; throws MatchConditionError with upstream's wording of the problem. */
export function compileMatchCondition(expression: string): CompiledCondition {
  let parsed: Parsed;
  try {
    parsed = cel().parse(expression);
  } catch (err) {
    const text = (err as Error).message;
    const m = /^<input>:(\d+):(\d+): ([\s\S]*)$/.exec(text);
    throw new MatchConditionError(`compilation failed: ${m ? located(expression, Number(m[1]), Number(m[2]), `Syntax error: ${m[3]}`) : `ERROR: ${text}`}`);
  }
  const checked = checkCondition(expression, parsed);
  if (checked.problems.length) {
    throw new MatchConditionError(`compilation failed: ${checked.problems.map((p) => at(expression, p.offset, p.message)).join('\n')}`);
  }
  if (checked.outputType !== 'bool') throw new MatchConditionError(`must evaluate to bool but got ${checked.outputType}`);
  let program: Program;
  try {
    program = cel().plan(matchEnv(), parsed) as Program;
  } catch (err) {
    throw new MatchConditionError(`compilation failed: ERROR: ${(err as Error).message}`);
  }
  return { expression, program };
}

/** `request` as CEL sees it: every string field present, even empty (compile.go convertObjectToUnstructured). */
export function celRequest(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  return {
    user: spec.user, groups: [...spec.groups], uid: spec.uid,
    extra: Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, [...v]])),
    ...(spec.resourceAttributes ? { resourceAttributes: celResourceAttributes(spec.resourceAttributes) } : {}),
    ...(spec.nonResourceAttributes ? { nonResourceAttributes: { ...spec.nonResourceAttributes } } : {}),
  };
}

type ResourceAttributes = NonNullable<SubjectAccessReviewSpec['resourceAttributes']>;

/** compile.go's convertObjectToUnstructured sets every requirement's values, an empty list too. */
function celSelector(selector: SelectorAttributesWire): SelectorAttributesWire {
  return selector.requirements ? { ...selector, requirements: selector.requirements.map((r) => ({ ...r, values: r.values ?? [] })) } : selector;
}

function celResourceAttributes(attributes: ResourceAttributes): ResourceAttributes {
  const { fieldSelector, labelSelector } = attributes;
  return { ...attributes, ...(fieldSelector ? { fieldSelector: celSelector(fieldSelector) } : {}), ...(labelSelector ? { labelSelector: celSelector(labelSelector) } : {}) };
}

export type MatchResult = { readonly matches: boolean } | { readonly error: string };

/**
 * upstream's CELMatcher.Eval: any condition false means no match (even if another one erred);
 * otherwise any error is the result; otherwise all are true and it matches.
 */
export function evaluateMatchConditions(conditions: readonly CompiledCondition[], spec: SubjectAccessReviewSpec): MatchResult {
  const request = celRequest(spec);
  const errors: string[] = [];
  for (const c of conditions) {
    const { celType, isCelError } = cel();
    const r = c.program({ request });
    if (isCelError(r)) {
      errors.push(`cel evaluation error: expression '${c.expression}' resulted in error: ${r.message}`);
      continue;
    }
    if (typeof r !== 'boolean') {
      errors.push(`cel evaluation error: expression '${c.expression}' eval result type should be bool but got ${String(celType(r))}`);
      continue;
    }
    if (!r) return { matches: false };
  }
  if (errors.length) return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
  return { matches: true };
}
