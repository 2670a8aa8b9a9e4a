// An authorization webhook's matchConditions: CEL expressions over `request`, the v1
// SubjectAccessReviewSpec, each of which must be true for the webhook to be asked. Parsing,
// planning and evaluation are @bufbuild/cel's. That library (0.6) has no public type checker, so
// "compiles" here means what can be known without one, checked the way cel-go reports it:
//   - the parser's syntax errors;
//   - names: the only variable is `request`, and a field selected from `request`,
//     `request.resourceAttributes` or `request.nonResourceAttributes` must exist in the schema
//     upstream declares (undeclared reference / undefined field);
//   - evaluation against two sample requests (one resource, one non-resource) whose fields all
//     hold values of their declared types: a non-bool result, an unknown function or an operator
//     applied to the wrong types there is a type error for every request, so it is refused now.
// What static typing would still catch beyond that surfaces at evaluation, where an error follows
// the webhook's failurePolicy, as upstream treats evaluation errors.
import { celEnv, celType, CelScalar, isCelError, mapType, parse, plan, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { SubjectAccessReviewSpec } from './subject-access-review.js';

/** upstream validation: at most this many conditions per webhook. */
export const MAX_MATCH_CONDITIONS = 64;

const env = celEnv({ variables: { request: mapType(CelScalar.STRING, CelScalar.DYN) }, funcs: strings });

/** Fields of the objects `request` leads to (compile.go buildRequestType, with selectors). */
const SCHEMA: Readonly<Record<string, readonly string[]>> = {
  request: ['resourceAttributes', 'nonResourceAttributes', 'user', 'groups', 'extra', 'uid'],
  'request.resourceAttributes': ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name', 'fieldSelector', 'labelSelector'],
  'request.nonResourceAttributes': ['path', 'verb'],
  'request.resourceAttributes.fieldSelector': ['rawSelector', 'requirements'],
  'request.resourceAttributes.labelSelector': ['rawSelector', 'requirements'],
};
/** Identifiers CEL resolves to type values (`type(x) == string`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

export class MatchConditionError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'MatchConditionError';
  }
}

type Program = (ctx: { request: Record<string, unknown> }) => CelResult;
type Parsed = ReturnType<typeof parse>;
type Expr = Parsed['expr'];

/** `ERROR: <input>:1:8: undefined field 'foo'` with cel-go's source line and caret under it. */
function located(expression: string, line: number, column: number, message: string): string {
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${source}\n | ${'.'.repeat(Math.max(0, column - 1))}^`;
}

function at(expression: string, parsed: Parsed, id: bigint | undefined, message: string): string {
  const offset = id === undefined ? 0 : Number(parsed.sourceInfo?.positions[id.toString()] ?? 0);
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  return located(expression, line, offset - before.lastIndexOf('\n'), message);
}

/** Names: free identifiers other than `request`, and fields the schema does not have. */
function checkNames(expression: string, parsed: Parsed): string[] {
  const problems: string[] = [];
  // The schema path an expression stands for ('request', 'request.resourceAttributes', ...), if any.
  const walk = (e: Expr | undefined, bound: ReadonlySet<string>): string | undefined => {
    if (e === undefined) return undefined;
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr': {
        const name = k.value.name;
        if (bound.has(name)) return undefined;
        if (name === 'request') return 'request';
        if (!TYPE_NAMES.has(name)) problems.push(at(expression, parsed, e.id, `undeclared reference to '${name}' (in container '')`));
        return undefined;
      }
      case 'selectExpr': {
        const of = walk(k.value.operand, bound);
        if (of === undefined || SCHEMA[of] === undefined) return undefined;
        if (!SCHEMA[of].includes(k.value.field)) {
          // has(x.f) is a macro: the position is that of the select the user wrote inside it.
          const call = parsed.sourceInfo?.macroCalls[e.id.toString()]?.exprKind;
          const written = call?.case === 'callExpr' ? call.value.args[0]?.id : undefined;
          problems.push(at(expression, parsed, written ?? e.id, `undefined field '${k.value.field}'`));
          return undefined;
        }
        return k.value.testOnly ? undefined : `${of}.${k.value.field}`;
      }
      case 'callExpr':
        walk(k.value.target, bound);
        for (const a of k.value.args) walk(a, bound);
        return undefined;
      case 'listExpr':
        for (const el of k.value.elements) walk(el, bound);
        return undefined;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value, bound);
          walk(entry.value, bound);
        }
        return undefined;
      case 'comprehensionExpr': {
        const c = k.value;
        walk(c.iterRange, bound);
        walk(c.accuInit, bound);
        const inner = new Set([...bound, c.iterVar, c.accuVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
        walk(c.loopCondition, inner);
        walk(c.loopStep, inner);
        walk(c.result, inner);
        return undefined;
      }
      default:
        return undefined;
    }
  };
  walk(parsed.expr, new Set());
  return problems;
}

const PROBE_USER = { user: 'probe', groups: ['probe'], uid: 'probe', extra: { probe: ['probe'] } };
const PROBES: readonly Record<string, unknown>[] = [
  { ...PROBE_USER, resourceAttributes: { namespace: 'probe', verb: 'get', group: 'probe', version: 'v1', resource: 'probe', subresource: 'probe', name: 'probe' } },
  { ...PROBE_USER, nonResourceAttributes: { path: '/probe', verb: 'get' } },
];
/** Evaluation errors that no well-typed request could avoid. */
const TYPE_ERRORS = /^(unbound function|found no matching overload)/;

export interface CompiledCondition {
  readonly expression: string;
  readonly program: Program;
}

/** Compiles one expression; throws MatchConditionError with upstream's wording of the problem. */
export function compileMatchCondition(expression: string): CompiledCondition {
  let parsed: Parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    const text = (err as Error).message;
    const m = /^<input>:(\d+):(\d+): ([\s\S]*)$/.exec(text);
    throw new MatchConditionError(`compilation failed: ${m ? located(expression, Number(m[1]), Number(m[2]), `Syntax error: ${m[3]}`) : `ERROR: ${text}`}`);
  }
  const names = checkNames(expression, parsed);
  if (names.length) throw new MatchConditionError(`compilation failed: ${names.join('\n')}`);
  let program: Program;
  try {
    program = plan(env, parsed) as Program;
  } catch (err) {
    throw new MatchConditionError(`compilation failed: ERROR: ${(err as Error).message}`);
  }
  for (const request of PROBES) {
    const r = program({ request });
    if (isCelError(r)) {
      if (TYPE_ERRORS.test(r.message)) throw new MatchConditionError(`compilation failed: ${at(expression, parsed, r.exprId, r.message)}`);
      continue;
    }
    if (typeof r !== 'boolean') throw new MatchConditionError(`must evaluate to bool but got ${String(celType(r))}`);
  }
  return { expression, program };
}

/** `request` as CEL sees it: every string field present, even empty (compile.go convertObjectToUnstructured). */
export function celRequest(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  return {
    user: spec.user, groups: [...spec.groups], uid: spec.uid,
    extra: Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, [...v]])),
    ...(spec.resourceAttributes ? { resourceAttributes: { ...spec.resourceAttributes } } : {}),
    ...(spec.nonResourceAttributes ? { nonResourceAttributes: { ...spec.nonResourceAttributes } } : {}),
  };
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
