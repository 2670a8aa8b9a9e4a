// A static type check of a parsed match condition, as cel-go's checker (checker/checker.go) runs
// it when kube-apiserver loads the authorization configuration: `request` has the type compile.go
// declares (buildRequestType), every call must resolve to an overload of a declared function, and
// after a clean check list and map literals must be homogeneous (ValidateHomogeneousAggregateLiterals).
// @bufbuild/cel evaluates without checking, and an ill-typed condition would only err per request.
import type { parse } from '@bufbuild/cel';
import { FUNCTIONS, TYPE_IDENTS, UNSUPPORTED, type Overload } from './cel-decls.js';
import {
  exact, formatType, listOf, mapOf, mostGeneral, substitute, T, tryAssignList, typeString,
  type CelT, type Mapping,
} from './cel-types.js';

type Parsed = ReturnType<typeof parse>;
type Expr = Parsed['expr'] & {};

const object = (name: string, fields: Record<string, CelT>): CelT => ({ k: 'object', name, fields });
const strings = listOf(T.string);
const selector = (name: string): CelT => object(name, {
  rawSelector: T.string,
  requirements: listOf(object('kubernetes.SelectorRequirement', { key: T.string, operator: T.string, values: strings })),
});

/** compile.go buildRequestType, with the selectors of AuthorizeWithSelectors (on in 1.32). */
export const REQUEST_TYPE = object('kubernetes.SubjectAccessReviewSpec', {
  resourceAttributes: object('kubernetes.ResourceAttributes', {
    namespace: T.string, verb: T.string, group: T.string, version: T.string, resource: T.string,
    subresource: T.string, name: T.string,
    fieldSelector: selector('kubernetes.FieldSelectorAttributes'),
    labelSelector: selector('kubernetes.LabelSelectorAttributes'),
  }),
  nonResourceAttributes: object('kubernetes.NonResourceAttributes', { path: T.string, verb: T.string }),
  user: T.string,
  groups: strings,
  extra: mapOf(T.string, strings),
  uid: T.string,
});

export interface Problem {
  /** Where cel-go places it: an operator's token, a call's `(`, a select's `.`. */
  readonly offset: number;
  readonly message: string;
}

/** The operator tokens of the calls the parser makes from them, for finding them in the source. */
const OPERATOR_TOKENS: Readonly<Record<string, string>> = {
  '_==_': '==', '_!=_': '!=', '_<_': '<', '_<=_': '<=', '_>_': '>', '_>=_': '>=', '_+_': '+', '_-_': '-',
  '_*_': '*', '_/_': '/', '_%_': '%', '_&&_': '&&', '_||_': '||', '@in': 'in', '_?_:_': '?', '_[_]': '[',
};
const UNARY = new Set(['!_', '-_']);

export interface CheckResult {
  readonly problems: readonly Problem[];
  /** Type.String() of the result, when there are no problems. */
  readonly outputType: string;
}

/** `a.b.c` as a name, when the expression is only identifiers and selects. */
function qualifiedName(e: Expr): string | undefined {
  const k = e.exprKind;
  if (k.case === 'identExpr') return k.value.name;
  if (k.case === 'selectExpr' && !k.value.testOnly && k.value.operand) {
    const of = qualifiedName(k.value.operand);
    return of === undefined ? undefined : `${of}.${k.value.field}`;
  }
  return undefined;
}

const MACROS = new Set(['all', 'exists', 'exists_one']);

class Checker {
  readonly problems: Problem[] = [];
  readonly types = new Map<bigint, CelT>();
  private mapping: Mapping = new Map();
  private scopes: Map<string, CelT>[] = [];
  /** Positions of the macros being checked: the parser gives the nodes a macro generates the macro's. */
  private macros: number[] = [];
  private fresh = 0;

  constructor(private readonly parsed: Parsed, private readonly source: string) {}

  private position(e: Expr): number {
    return Number(this.parsed.sourceInfo?.positions[e.id.toString()] ?? 0);
  }

  private leftmost(e: Expr): number {
    const k = e.exprKind;
    const children: (Expr | undefined)[] =
      k.case === 'callExpr' ? [k.value.target, ...k.value.args]
        : k.case === 'selectExpr' ? [k.value.operand]
          : k.case === 'listExpr' ? k.value.elements
            : k.case === 'structExpr' ? k.value.entries.flatMap((x) => [x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined, x.value])
              : k.case === 'comprehensionExpr' ? [k.value.iterRange] : [];
    return Math.min(this.position(e), ...children.flatMap((c) => (c ? [this.leftmost(c)] : [])));
  }

  /**
   * cel-go's position for a call: its operator token or its `(`, or for what a macro generated the
   * macro's `(`. @bufbuild/cel places operators elsewhere and calls at the name or the `.`.
   */
  private offset(e: Expr): number {
    const at = this.position(e);
    const k = e.exprKind;
    if (k.case !== 'callExpr') return at;
    const token = OPERATOR_TOKENS[k.value.function];
    const right = k.value.args[1];
    if (this.macros.at(-1) === at || (token === undefined && !UNARY.has(k.value.function))) {
      const open = this.source.indexOf('(', at);
      return open < 0 ? at : open;
    }
    if (token === undefined || right === undefined) return at;
    const found = this.source.lastIndexOf(token, this.leftmost(right) - 1);
    return found < 0 ? at : found;
  }

  private report(e: Expr, message: string): void {
    this.problems.push({ offset: this.offset(e), message });
  }

  private newParam(): CelT {
    return { k: 'param', name: `_var${this.fresh++}` };
  }

  check(e: Expr | undefined): CelT {
    if (e === undefined) return T.error;
    const t = this.kind(e);
    this.types.set(e.id, t);
    return t;
  }

  private kind(e: Expr): CelT {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        switch (k.value.constantKind.case) {
          case 'boolValue': return T.bool;
          case 'int64Value': return T.int;
          case 'uint64Value': return T.uint;
          case 'doubleValue': return T.double;
          case 'stringValue': return T.string;
          case 'bytesValue': return T.bytes;
          case 'nullValue': return T.null;
          default: return T.dyn;
        }
      case 'identExpr': return this.ident(e, k.value.name);
      case 'selectExpr': return this.select(e, k.value.operand, k.value.field, k.value.testOnly);
      case 'callExpr': return this.call(e, k.value.function, k.value.target, k.value.args);
      case 'listExpr': {
        let elem: CelT | undefined;
        for (const el of k.value.elements) elem = this.join(elem, this.check(el));
        return listOf(elem ?? this.newParam());
      }
      case 'structExpr': {
        if (k.value.messageName !== '') {
          for (const entry of k.value.entries) this.check(entry.value);
          this.report(e, `plat cannot create objects in CEL ('${k.value.messageName}')`);
          return T.error;
        }
        let key: CelT | undefined;
        let value: CelT | undefined;
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') key = this.join(key, this.check(entry.keyKind.value));
          value = this.join(value, this.check(entry.value));
        }
        return key === undefined ? mapOf(this.newParam(), this.newParam()) : mapOf(key, value ?? T.dyn);
      }
      case 'comprehensionExpr': return this.comprehension(e, k.value);
      default: return T.dyn;
    }
  }

  /** joinTypes with dynamic aggregate literal element types (the validator judges them later). */
  private join(previous: CelT | undefined, current: CelT): CelT {
    if (previous === undefined) return current;
    const trial = tryAssignList(this.mapping, [previous], [current]);
    if (trial === undefined) return T.dyn;
    this.mapping = trial;
    return mostGeneral(previous, current);
  }

  private lookupVar(name: string): CelT | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i]!.get(name);
      if (t) return t;
    }
    if (name === 'request') return REQUEST_TYPE;
    return TYPE_IDENTS.get(name);
  }

  private ident(e: Expr, name: string): CelT {
    const t = this.lookupVar(name);
    if (t) return t;
    this.report(e, `undeclared reference to '${name}' (in container '')`);
    return T.error;
  }

  private select(e: Expr, operand: Expr | undefined, field: string, testOnly: boolean): CelT {
    const qualified = testOnly ? undefined : qualifiedName(e);
    const named = qualified === undefined ? undefined : TYPE_IDENTS.get(qualified);
    if (named) return named;
    const target = substitute(this.mapping, this.check(operand), false);
    let result: CelT = T.dyn;
    if (target.k === 'map') result = target.value;
    else if (target.k === 'object') {
      const f = target.fields[field];
      // has(x.f) is a macro: cel-go places the error at the select the user wrote inside it.
      const call = this.parsed.sourceInfo?.macroCalls[e.id.toString()]?.exprKind;
      const written = call?.case === 'callExpr' ? call.value.args[0] : undefined;
      if (f === undefined) this.report(written ?? e, `undefined field '${field}'`);
      result = f ?? T.error;
    } else if (target.k === 'param') {
      const trial = tryAssignList(this.mapping, [T.dyn], [target]);
      if (trial) this.mapping = trial;
    } else if (target.k !== 'dyn' && target.k !== 'error') {
      this.report(e, `type '${formatType(target)}' does not support field selection`);
    }
    return testOnly ? T.bool : result;
  }

  private call(e: Expr, fn: string, target: Expr | undefined, args: readonly Expr[]): CelT {
    const namespaced = target ? qualifiedName(target) : undefined;
    const qualified = namespaced !== undefined && (FUNCTIONS.has(`${namespaced}.${fn}`) || UNSUPPORTED.has(`${namespaced}.${fn}`))
      ? `${namespaced}.${fn}` : undefined;
    const name = qualified ?? fn;
    // all(x, p) and friends reach here only as the two-variable form or with a wrong arity.
    if (UNSUPPORTED.has(name) && !(MACROS.has(name) && args.length !== 3)) return this.unsupported(e, name);
    const argTypes = args.map((a) => this.check(a));
    const receiver = target && qualified === undefined ? [this.check(target)] : [];
    const overloads = FUNCTIONS.get(name);
    if (overloads === undefined) {
      this.report(e, `undeclared reference to '${name}' (in container '')`);
      return T.error;
    }
    const actual = [...receiver, ...argTypes];
    if ((fn === 'indexOf' || fn === 'lastIndexOf') && receiver[0] && substitute(this.mapping, receiver[0], false).k === 'list') {
      return this.unsupported(e, fn);
    }
    return this.resolve(e, name, overloads, actual, receiver.length > 0) ?? T.error;
  }

  private unsupported(e: Expr, name: string): CelT {
    this.report(e, `'${name}' is in the Kubernetes CEL environment but plat does not implement it`);
    return T.error;
  }

  /** resolveOverload: every matching overload counts; two with different results give dyn. */
  private resolve(e: Expr, name: string, overloads: readonly Overload[], actual: CelT[], member: boolean): CelT | undefined {
    let result: CelT | undefined;
    for (const o of overloads) {
      if (o.member !== member) continue;
      const renamed = new Map<string, CelT>();
      const fresh = (t: CelT): CelT => {
        if (t.k === 'param') {
          if (!renamed.has(t.name)) renamed.set(t.name, this.newParam());
          return renamed.get(t.name)!;
        }
        if (t.k === 'list') return listOf(fresh(t.elem));
        if (t.k === 'map') return mapOf(fresh(t.key), fresh(t.value));
        if (t.k === 'type' && t.of) return { k: 'type', of: fresh(t.of) };
        return t;
      };
      const formals = o.args.map(fresh);
      const resultType = fresh(o.result);
      const trial = tryAssignList(this.mapping, actual, formals);
      if (trial === undefined) continue;
      this.mapping = trial;
      const r = substitute(this.mapping, resultType, false);
      result = result === undefined ? r : result.k !== 'dyn' && !exact(r, result) ? T.dyn : result;
    }
    if (result === undefined) {
      const shown = actual.map((t) => formatType(substitute(this.mapping, t, true)));
      const signature = member ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.report(e, `found no matching overload for '${name}' applied to '${signature}'`);
    }
    return result;
  }

  private comprehension(whole: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): CelT {
    this.macros.push(this.position(whole));
    try {
      return this.comprehensionBody(c);
    } finally {
      this.macros.pop();
    }
  }

  private comprehensionBody(c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): CelT {
    const range = substitute(this.mapping, this.check(c.iterRange), false);
    const accu = this.check(c.accuInit);
    let iter: CelT = T.dyn;
    if (range.k === 'list') iter = range.elem;
    else if (range.k === 'map') iter = range.key;
    else if (range.k === 'param') {
      const trial = tryAssignList(this.mapping, [T.dyn], [range]);
      if (trial) this.mapping = trial;
    } else if (range.k !== 'dyn' && range.k !== 'error' && c.iterRange) {
      this.report(c.iterRange, `expression of type '${formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
    }
    this.scopes.push(new Map([[c.accuVar, accu]]));
    this.scopes.push(new Map([[c.iterVar, iter]]));
    this.expect(c.loopCondition, this.check(c.loopCondition), T.bool);
    this.expect(c.loopStep, this.check(c.loopStep), accu);
    this.scopes.pop();
    const result = this.check(c.result);
    this.scopes.pop();
    return result;
  }

  private expect(e: Expr | undefined, actual: CelT, expected: CelT): void {
    const trial = tryAssignList(this.mapping, [expected], [actual]);
    if (trial) this.mapping = trial;
    else if (e) this.report(e, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }

  /** A literal's element is where its first token is. */
  literalOffset(e: Expr): number {
    return this.leftmost(e);
  }

  final(t: CelT): CelT {
    return substitute(this.mapping, t, true);
  }
}

/** ValidateHomogeneousAggregateLiterals: one element (key, value) type per literal. */
function homogeneous(root: Expr, typeOf: (id: bigint) => CelT, offset: (e: Expr) => number): Problem[] {
  const problems: Problem[] = [];
  const same = (items: readonly Expr[]): void => {
    const first = items[0];
    if (!first) return;
    const want = typeOf(first.id);
    const other = items.find((x) => !exact(typeOf(x.id), want));
    if (other) problems.push({ offset: offset(other), message: `expected type '${formatType(want)}' but found '${formatType(typeOf(other.id))}'` });
  };
  const walk = (e: Expr | undefined, exempt: boolean): void => {
    if (e === undefined) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'selectExpr': return walk(k.value.operand, exempt);
      case 'callExpr': {
        // Literals at any depth inside string format calls are exempt.
        const inside = exempt || k.value.function === 'format';
        walk(k.value.target, inside);
        for (const a of k.value.args) walk(a, inside);
        return;
      }
      case 'listExpr':
        if (!exempt) same(k.value.elements);
        for (const el of k.value.elements) walk(el, exempt);
        return;
      case 'structExpr': {
        const keys = k.value.entries.flatMap((x) => (x.keyKind.case === 'mapKey' ? [x.keyKind.value] : []));
        if (k.value.messageName === '' && !exempt) {
          same(keys);
          if (problems.length === 0) same(k.value.entries.flatMap((x) => (x.value ? [x.value] : [])));
        }
        for (const x of k.value.entries) {
          if (x.keyKind.case === 'mapKey') walk(x.keyKind.value, exempt);
          walk(x.value, exempt);
        }
        return;
      }
      case 'comprehensionExpr':
        for (const part of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result]) walk(part, exempt);
        return;
      default:
    }
  };
  walk(root, false);
  return problems;
}

/** The problems sorted by position, as cel-go displays them, and the result type. */
export function checkCondition(expression: string, parsed: Parsed): CheckResult {
  const root = parsed.expr;
  if (root === undefined) return { problems: [], outputType: 'dyn' };
  const c = new Checker(parsed, expression);
  const t = c.check(root);
  if (c.problems.length) return { problems: [...c.problems].sort((a, b) => a.offset - b.offset), outputType: typeString(c.final(t)) };
  const problems = homogeneous(root, (id) => c.final(c.types.get(id) ?? T.dyn), (e) => c.literalOffset(e));
  return { problems, outputType: typeString(c.final(t)) };
}
