// CEL for the JWT authenticator, through @bufbuild/cel: claim expressions see `claims` (the token
// payload as a map), user validation rules see `user` (username, uid, groups, extra), as upstream's
// k8s.io/apiserver/pkg/authentication/cel. Everything is parsed at start-up; the library has no
// public type checker, so the checks upstream's checker makes that matter here are done on the
// parsed tree: undeclared variables, unknown `user` fields, and a validation rule whose result is
// statically not a bool ("must evaluate to bool", as upstream). Other type errors surface per token.
import type { CelEnv, CelValue, parse, plan } from '@bufbuild/cel';
import { cel, celExt } from '../../core/cel-modules.js';
import type { CompileResult, ExpressionCompiler, ExpressionKind } from '../../core/authn/authentication-config/index.js';

type ParsedExpr = ReturnType<typeof parse>;
type Expr = ParsedExpr['expr'];
type Program = ReturnType<typeof plan>;

export class CelEvaluationError extends Error {
  override readonly name = 'CelEvaluationError';
}

const USER_FIELDS: Record<string, StaticType> = { username: 'string', uid: 'string', groups: 'list', extra: 'map' };
/** Identifiers that name types (`type(x) == string`) rather than variables. */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

type StaticType = 'bool' | 'string' | 'int' | 'uint' | 'double' | 'bytes' | 'null' | 'list' | 'map' | 'dyn' | 'object';

const envs = new Map<'claims' | 'user', CelEnv>();

/** The environment of one variable, built when its first expression is planned. */
function envOf(variable: 'claims' | 'user'): CelEnv {
  let env = envs.get(variable);
  if (env === undefined) {
    const { CelScalar, celEnv, mapType } = cel();
    env = celEnv({ variables: { [variable]: mapType(CelScalar.STRING, CelScalar.DYN) }, funcs: celExt().strings });
    envs.set(variable, env);
  }
  return env;
}

export interface CompiledExpression {
  readonly expression: string;
  readonly variable: 'claims' | 'user';
  readonly program: Program;
  readonly usesEmailClaim: boolean;
  readonly usesEmailVerifiedClaim: boolean;
}

function position(source: string, offset: number): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const text = source.split('\n')[line - 1] ?? '';
  return `<input>:${line}:${column}: %s\n | ${text}\n | ${'.'.repeat(column - 1)}^`;
}

function children(e: Expr): Expr[] {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': return k.value.operand ? [k.value.operand] : [];
    case 'callExpr': return [...(k.value.target ? [k.value.target] : []), ...k.value.args];
    case 'listExpr': return [...k.value.elements];
    case 'structExpr': return k.value.entries.flatMap((en) => [...(en.keyKind.case === 'mapKey' ? [en.keyKind.value] : []), ...(en.value ? [en.value] : [])]);
    case 'comprehensionExpr': {
      const c = k.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter((x): x is Expr => x !== undefined);
    }
    default: return [];
  }
}

const isIdent = (e: Expr | undefined, name: string): boolean => e?.exprKind.case === 'identExpr' && e.exprKind.value.name === name;

/** Upstream's hasSelectExp: `claims.<field>` or `claims.?<field>` anywhere in the tree. */
export function hasSelect(e: Expr | undefined, operand: string, field: string): boolean {
  if (!e) return false;
  const k = e.exprKind;
  if (k.case === 'selectExpr' && isIdent(k.value.operand, operand) && k.value.field === field) return true;
  if (k.case === 'callExpr' && !k.value.target && k.value.function === '_?._' && k.value.args.length === 2 && isIdent(k.value.args[0], operand)) {
    const f = k.value.args[1]?.exprKind;
    if (f?.case === 'constExpr' && f.value.constantKind.case === 'stringValue' && f.value.constantKind.value === field) return true;
  }
  return children(e).some((c) => hasSelect(c, operand, field));
}

/** The first reference the checker would refuse: an undeclared identifier or an unknown user field. */
function badReference(e: Expr, declared: string, bound: ReadonlySet<string>, positions: Record<string, number>): { offset: number; message: string } | undefined {
  const k = e.exprKind;
  const at = () => positions[String(e.id)] ?? 0;
  if (k.case === 'identExpr') {
    const n = k.value.name;
    if (n !== declared && !bound.has(n) && !TYPE_NAMES.has(n)) return { offset: at(), message: `undeclared reference to '${n}' (in container '')` };
    return undefined;
  }
  if (k.case === 'selectExpr' && declared === 'user' && isIdent(k.value.operand, 'user') && !bound.has('user') && !(k.value.field in USER_FIELDS)) {
    return { offset: at(), message: `undefined field '${k.value.field}'` };
  }
  if (k.case === 'comprehensionExpr') {
    const c = k.value;
    const inner = new Set([...bound, c.iterVar, ...(c.iterVar2 ? [c.iterVar2] : []), c.accuVar]);
    for (const [x, scope] of [[c.iterRange, bound], [c.accuInit, bound], [c.loopCondition, inner], [c.loopStep, inner], [c.result, new Set([...bound, c.accuVar])]] as const) {
      const r = x ? badReference(x, declared, scope, positions) : undefined;
      if (r) return r;
    }
    return undefined;
  }
  for (const child of children(e)) {
    const r = badReference(child, declared, bound, positions);
    if (r) return r;
  }
  return undefined;
}

const BOOL_FUNCTIONS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_&&_', '_||_', '!_', '@in', 'startsWith', 'endsWith', 'contains', 'matches', 'bool', '@not_strictly_false']);
const STRING_FUNCTIONS = new Set(['string', 'lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'format', 'join', 'quote', 'reverse']);
const RESULT_TYPES: Record<string, StaticType> = { size: 'int', int: 'int', uint: 'uint', double: 'double', bytes: 'bytes', split: 'list', indexOf: 'int', lastIndexOf: 'int' };

/** The result type where the tree says it for sure; undefined when only evaluation can tell. */
function staticType(e: Expr | undefined, accu?: { name: string; type: StaticType | undefined }): StaticType | undefined {
  if (!e) return undefined;
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr': {
      const c = k.value.constantKind.case;
      return c === 'boolValue' ? 'bool' : c === 'stringValue' ? 'string' : c === 'int64Value' ? 'int' : c === 'uint64Value' ? 'uint'
        : c === 'doubleValue' ? 'double' : c === 'bytesValue' ? 'bytes' : c === 'nullValue' ? 'null' : undefined;
    }
    case 'identExpr':
      if (accu && k.value.name === accu.name) return accu.type;
      return k.value.name === 'claims' ? 'map' : k.value.name === 'user' ? 'object' : undefined;
    case 'selectExpr':
      if (k.value.testOnly) return 'bool';
      if (isIdent(k.value.operand, 'user')) return USER_FIELDS[k.value.field];
      return isIdent(k.value.operand, 'claims') ? 'dyn' : undefined;
    case 'listExpr': return 'list';
    case 'structExpr': return k.value.messageName ? undefined : 'map';
    case 'callExpr': {
      const f = k.value.function;
      if (BOOL_FUNCTIONS.has(f)) return 'bool';
      if (STRING_FUNCTIONS.has(f)) return 'string';
      if (f in RESULT_TYPES) return RESULT_TYPES[f];
      if (f === '_?_:_') {
        const [a, b] = [staticType(k.value.args[1], accu), staticType(k.value.args[2], accu)];
        return a !== undefined && a === b ? a : undefined;
      }
      if (f === '_[_]' && isIdent(k.value.args[0], 'claims')) return 'dyn';
      return undefined;
    }
    case 'comprehensionExpr': {
      const c = k.value;
      return staticType(c.result, { name: c.accuVar, type: staticType(c.accuInit, accu) });
    }
    default: return undefined;
  }
}

/** Compiles and caches expressions: validation and the authenticators share one instance. */
export class CelCompiler implements ExpressionCompiler {
  readonly #cache = new Map<string, CompiledExpression | Extract<CompileResult, { ok: false }>>();

  compile(expression: string, kind: ExpressionKind): CompileResult {
    const r = this.#compile(expression, kind);
    return 'program' in r ? { ok: true, usesEmailClaim: r.usesEmailClaim, usesEmailVerifiedClaim: r.usesEmailVerifiedClaim } : r;
  }

  /** The compiled program of an expression that compile() accepted. */
  program(expression: string, kind: ExpressionKind): CompiledExpression {
    const r = this.#compile(expression, kind);
    if (!('program' in r)) throw new Error(`CEL expression was not compiled: ${r.detail}`);
    return r;
  }

  #compile(expression: string, kind: ExpressionKind): CompiledExpression | Extract<CompileResult, { ok: false }> {
    const key = `${kind}\u0000${expression}`;
    let r = this.#cache.get(key);
    if (r === undefined) {
      r = compileExpression(expression, kind);
      this.#cache.set(key, r);
    }
    return r;
  }
}

function compileExpression(expression: string, kind: ExpressionKind): CompiledExpression | Extract<CompileResult, { ok: false }> {
  if (expression.trim() === '') return { ok: false, type: 'Required', detail: 'expression is required' };
  const variable = kind === 'userValidation' ? 'user' : 'claims';
  let parsed: ParsedExpr;
  try {
    parsed = cel().parse(expression);
  } catch (err) {
    return { ok: false, type: 'Invalid', detail: `compilation failed: ERROR: ${(err as Error).message}` };
  }
  const positions: Record<string, number> = {};
  for (const [id, off] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = Number(off);
  const bad = badReference(parsed.expr, variable, new Set(), positions);
  if (bad) return { ok: false, type: 'Invalid', detail: `compilation failed: ERROR: ${position(expression, bad.offset).replace('%s', bad.message)}` };
  if (kind === 'claimValidation' || kind === 'userValidation') {
    const t = staticType(parsed.expr);
    if (t !== undefined && t !== 'bool') return { ok: false, type: 'Invalid', detail: 'must evaluate to bool' };
  }
  let program: Program;
  try {
    program = cel().plan(envOf(variable), parsed) as Program;
  } catch (err) {
    return { ok: false, type: 'Internal', detail: `program instantiation failed: ${(err as Error).message}` };
  }
  return {
    expression, variable, program,
    usesEmailClaim: hasSelect(parsed.expr, 'claims', 'email'),
    usesEmailVerifiedClaim: hasSelect(parsed.expr, 'claims', 'email_verified'),
  };
}

/** JSON (a token payload, user info) as CEL input: objects become maps, whole numbers ints. */
export function celInput(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(celInput);
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : v;
  if (typeof v === 'object' && v !== null) return new Map(Object.entries(v).map(([k, x]) => [k, celInput(x)]));
  return v;
}

/** Runs a compiled expression; a CEL runtime error becomes a CelEvaluationError. */
export function evaluate(c: CompiledExpression, input: unknown): CelValue {
  const run = c.program as (ctx: Record<string, unknown>) => CelValue;
  let out: CelValue;
  try {
    out = run({ [c.variable]: input });
  } catch (err) {
    throw new CelEvaluationError((err as Error).message);
  }
  if (cel().isCelError(out)) throw new CelEvaluationError(out.message);
  return out;
}

/** Upstream's convertCELValueToStringList: string, list of strings or null; empty strings dropped. */
export function celStringList(v: CelValue): string[] {
  if (v === null) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (cel().isCelList(v)) {
    const out: string[] = [];
    for (const item of v) {
      if (typeof item !== 'string') throw new CelEvaluationError('expression must return a string or a list of strings');
      if (item !== '') out.push(item);
    }
    return out;
  }
  throw new CelEvaluationError('expression must return a string or a list of strings');
}

export const celTypeName = (v: CelValue): string =>
  v === null ? 'null_type' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'double' : typeof v === 'boolean' ? 'bool'
    : typeof v === 'string' ? 'string' : cel().isCelList(v) ? 'list' : cel().isCelMap(v) ? 'map' : 'object';
