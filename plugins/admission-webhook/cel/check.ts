// Compile-time checks of a match condition on the parsed expression, standing in for cel-go's
// type checker (the one in @bufbuild/cel cannot check selections yet): every identifier and
// function must be declared, fields of the typed variables (`request`, `authorizer`) must
// exist, and the expression must evaluate to bool. `object` and `oldObject` are dyn, as they
// are upstream for webhooks, so an expression that only selects from them (`object.spec.x`) is
// dyn, not bool, and refused as upstream refuses it. Parsing and evaluation stay @bufbuild/cel's.
import type { CelEnv } from '@bufbuild/cel';
import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { AUTHZ_TYPES } from './authz-library.js';

type Prim = 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null_type' | 'list' | 'map' | 'dyn' | 'type' | 'timestamp' | 'duration';
/** A primitive kind, or the full name of a message type. */
export type CelTypeName = Prim | `msg:${string}`;

const GVK = 'msg:meta.GroupVersionKind', GVR = 'msg:meta.GroupVersionResource', USER = 'msg:authentication.UserInfo';
export const REQUEST_TYPE: CelTypeName = 'msg:admission.AdmissionRequest';

/** Fields of the message types the variables expose (upstream's AdmissionRequest for CEL). */
const FIELDS: Record<string, Record<string, CelTypeName>> = {
  [REQUEST_TYPE]: {
    uid: 'string', kind: GVK, resource: GVR, subResource: 'string', requestKind: GVK, requestResource: GVR,
    requestSubResource: 'string', name: 'string', namespace: 'string', operation: 'string', userInfo: USER,
    dryRun: 'bool', options: 'dyn',
  },
  [GVK]: { group: 'string', version: 'string', kind: 'string' },
  [GVR]: { group: 'string', version: 'string', resource: 'string' },
  [USER]: { username: 'string', uid: 'string', groups: 'list', extra: 'map' },
  [`msg:${AUTHZ_TYPES.authorizer}`]: { requestResource: `msg:${AUTHZ_TYPES.resourceCheck}` },
  [`msg:${AUTHZ_TYPES.pathCheck}`]: {},
  [`msg:${AUTHZ_TYPES.groupCheck}`]: {},
  [`msg:${AUTHZ_TYPES.resourceCheck}`]: {},
  [`msg:${AUTHZ_TYPES.decision}`]: {},
};

/** Result types of functions and methods by name (the overloads of one name agree here). */
const RESULTS: Record<string, CelTypeName> = {
  size: 'int', int: 'int', uint: 'uint', double: 'double', string: 'string', bytes: 'bytes', bool: 'bool',
  dyn: 'dyn', type: 'type', timestamp: 'timestamp', duration: 'duration',
  contains: 'bool', startsWith: 'bool', endsWith: 'bool', matches: 'bool',
  charAt: 'string', indexOf: 'int', lastIndexOf: 'int', lowerAscii: 'string', upperAscii: 'string', replace: 'string',
  split: 'list', substring: 'string', trim: 'string', join: 'string', format: 'string', 'strings.quote': 'string',
  path: `msg:${AUTHZ_TYPES.pathCheck}`, group: `msg:${AUTHZ_TYPES.groupCheck}`, serviceAccount: `msg:${AUTHZ_TYPES.authorizer}`,
  resource: `msg:${AUTHZ_TYPES.resourceCheck}`, subresource: `msg:${AUTHZ_TYPES.resourceCheck}`, namespace: `msg:${AUTHZ_TYPES.resourceCheck}`,
  name: `msg:${AUTHZ_TYPES.resourceCheck}`, check: `msg:${AUTHZ_TYPES.decision}`, allowed: 'bool', errored: 'bool', reason: 'string', error: 'string',
  '_==_': 'bool', '_!=_': 'bool', '_<_': 'bool', '_<=_': 'bool', '_>_': 'bool', '_>=_': 'bool', '@in': 'bool', '!_': 'bool',
  '_&&_': 'bool', '_||_': 'bool', '@not_strictly_false': 'bool',
};
/** Emitted by the parser (logic, ternary, index); the evaluator handles them without a function entry. */
const SPECIAL = new Set(['_&&_', '_||_', '_?_:_', '@not_strictly_false', '_[_]']);
const ARITHMETIC = new Set(['_+_', '_-_', '_*_', '_/_', '_%_']);
const TYPE_IDENTS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

export interface CheckIssue { readonly offset: number; readonly message: string }

class Checker {
  readonly issues: CheckIssue[] = [];
  constructor(private readonly env: CelEnv, private readonly vars: ReadonlyMap<string, CelTypeName>,
    private readonly positions: Readonly<Record<string, number>>) {}

  private issue(e: Expr, message: string): void {
    this.issues.push({ offset: this.positions[String(e.id)] ?? 0, message });
  }

  check(e: Expr, scope: ReadonlyMap<string, CelTypeName>): CelTypeName {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind.case;
        return c === 'boolValue' ? 'bool' : c === 'int64Value' ? 'int' : c === 'uint64Value' ? 'uint' : c === 'doubleValue' ? 'double'
          : c === 'stringValue' ? 'string' : c === 'bytesValue' ? 'bytes' : c === 'nullValue' ? 'null_type' : 'dyn';
      }
      case 'identExpr': {
        const name = k.value.name;
        const t = scope.get(name) ?? this.vars.get(name);
        if (t) return t;
        if (TYPE_IDENTS.has(name)) return 'type';
        this.issue(e, `undeclared reference to '${name}' (in container '')`);
        return 'dyn';
      }
      case 'selectExpr': {
        const { operand, field, testOnly } = k.value;
        const t = operand ? this.check(operand, scope) : 'dyn';
        if (t.startsWith('msg:')) {
          const fields = FIELDS[t];
          const ft = fields?.[field];
          if (fields && !ft) { this.issue(e, `undefined field '${field}'`); return testOnly ? 'bool' : 'dyn'; }
          return testOnly ? 'bool' : ft ?? 'dyn';
        }
        if (t !== 'dyn' && t !== 'map') this.issue(e, `type '${t}' does not support field selection`);
        return testOnly ? 'bool' : 'dyn';
      }
      case 'callExpr': {
        const { function: fn, target, args } = k.value;
        if (target) this.check(target, scope);
        const argTypes = args.map((a) => this.check(a, scope));
        if (!SPECIAL.has(fn) && !this.env.funcs.find(fn)) {
          this.issue(e, `undeclared reference to '${fn}' (in container '')`);
          return 'dyn';
        }
        if (fn === '_?_:_') return argTypes[1] === argTypes[2] ? argTypes[1]! : 'dyn';
        if (fn === '-_') return argTypes[0] ?? 'dyn';
        if (ARITHMETIC.has(fn)) return argTypes[0] === argTypes[1] && argTypes[0] !== 'null_type' ? argTypes[0]! : 'dyn';
        if (fn === '_[_]') return 'dyn';
        return RESULTS[fn] ?? 'dyn';
      }
      case 'listExpr':
        for (const el of k.value.elements) this.check(el, scope);
        return 'list';
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') this.check(entry.keyKind.value, scope);
          if (entry.value) this.check(entry.value, scope);
        }
        return k.value.messageName ? 'dyn' : 'map';
      case 'comprehensionExpr': {
        const c = k.value;
        if (c.iterRange) this.check(c.iterRange, scope);
        const accuType = c.accuInit ? this.check(c.accuInit, scope) : 'dyn';
        const inner = new Map(scope);
        inner.set(c.iterVar, 'dyn');
        if (c.iterVar2) inner.set(c.iterVar2, 'dyn');
        inner.set(c.accuVar, accuType);
        if (c.loopCondition) this.check(c.loopCondition, inner);
        if (c.loopStep) this.check(c.loopStep, inner);
        const resultScope = new Map(scope);
        resultScope.set(c.accuVar, accuType);
        return c.result ? this.check(c.result, resultScope) : 'dyn';
      }
      default:
        return 'dyn';
    }
  }
}

/** Issues of a parsed expression (offsets into the source), and its output type. */
export function checkExpression(env: CelEnv, parsed: ParsedExpr, vars: ReadonlyMap<string, CelTypeName>): { issues: CheckIssue[]; type: CelTypeName } {
  const positions: Record<string, number> = {};
  for (const [id, offset] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = offset;
  const checker = new Checker(env, vars, positions);
  const type = parsed.expr ? checker.check(parsed.expr, new Map()) : 'dyn';
  return { issues: checker.issues, type };
}
