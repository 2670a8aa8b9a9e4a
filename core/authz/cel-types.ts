// CEL types for the match-condition checker and cel-go's rules for them (checker/types.go,
// checker/mapping.go, checker/format.go): assignability with type parameters bound as the check
// goes, so `_==_`, declared (A, A) -> bool, refuses (string, int) while dyn fits anything.

export type CelT =
  | { readonly k: 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null' | 'dyn' | 'error' | 'timestamp' | 'duration' }
  | { readonly k: 'list'; readonly elem: CelT }
  | { readonly k: 'map'; readonly key: CelT; readonly value: CelT }
  | { readonly k: 'type'; readonly of?: CelT }
  | { readonly k: 'object'; readonly name: string; readonly fields: Readonly<Record<string, CelT>> }
  | { readonly k: 'param'; readonly name: string };

export const T = {
  int: { k: 'int' }, uint: { k: 'uint' }, double: { k: 'double' }, bool: { k: 'bool' }, string: { k: 'string' },
  bytes: { k: 'bytes' }, null: { k: 'null' }, dyn: { k: 'dyn' }, error: { k: 'error' },
  timestamp: { k: 'timestamp' }, duration: { k: 'duration' },
} as const satisfies Record<string, CelT>;
export const listOf = (elem: CelT): CelT => ({ k: 'list', elem });
export const mapOf = (key: CelT, value: CelT): CelT => ({ k: 'map', key, value });
export const typeOf = (of?: CelT): CelT => (of ? { k: 'type', of } : { k: 'type' });

const params = (t: CelT): readonly CelT[] =>
  t.k === 'list' ? [t.elem] : t.k === 'map' ? [t.key, t.value] : t.k === 'type' && t.of ? [t.of] : [];

/** FormatCELType: how the checker's messages print a type. */
export function formatType(t: CelT): string {
  switch (t.k) {
    case 'error': return '*error*';
    case 'param': return t.name;
    case 'object': return t.name;
    default: {
      const ps = params(t);
      return ps.length ? `${t.k}(${ps.map(formatType).join(', ')})` : t.k;
    }
  }
}

/** Type.String(): how compile.go prints the output type ("must evaluate to bool but got ..."). */
export function typeString(t: CelT): string {
  if (t.k === 'null') return 'null_type';
  if (t.k === 'object' || t.k === 'param' || t.k === 'error') return formatType(t);
  const ps = params(t);
  return ps.length ? `${t.k}(${ps.map(typeString).join(', ')})` : t.k;
}

export function exact(a: CelT, b: CelT): boolean {
  if (a.k !== b.k) return false;
  if (a.k === 'object' || a.k === 'param') return a.name === (b as typeof a).name;
  const pa = params(a);
  const pb = params(b);
  return pa.length === pb.length && pa.every((p, i) => exact(p, pb[i]!));
}

/** Type-parameter bindings; copied before a trial so a failed overload leaves no trace. */
export type Mapping = Map<string, CelT>;

const isDyn = (t: CelT): boolean => t.k === 'dyn';
const isDynOrError = (t: CelT): boolean => t.k === 'dyn' || t.k === 'error';
const isNullable = (t: CelT): boolean => t.k === 'null' || t.k === 'object' || t.k === 'timestamp' || t.k === 'duration';

export function substitute(m: Mapping, t: CelT, paramToDyn: boolean): CelT {
  if (t.k === 'param') {
    const sub = m.get(t.name);
    if (sub) return substitute(m, sub, paramToDyn);
    return paramToDyn ? T.dyn : t;
  }
  switch (t.k) {
    case 'list': return listOf(substitute(m, t.elem, paramToDyn));
    case 'map': return mapOf(substitute(m, t.key, paramToDyn), substitute(m, t.value, paramToDyn));
    case 'type': return t.of ? typeOf(substitute(m, t.of, paramToDyn)) : t;
    default: return t;
  }
}

function lessSpecific(a: CelT, b: CelT): boolean {
  if (isDyn(a) || a.k === 'param') return true;
  if (isDyn(b) || b.k === 'param') return false;
  if (a.k !== b.k) return false;
  if (a.k === 'list' && b.k === 'list') return lessSpecific(a.elem, b.elem);
  if (a.k === 'map' && b.k === 'map') return lessSpecific(a.key, b.key) && lessSpecific(a.value, b.value);
  if (a.k === 'type') return true;
  return exact(a, b);
}

export const mostGeneral = (a: CelT, b: CelT): CelT => (lessSpecific(a, b) ? a : b);

function notReferencedIn(m: Mapping, t: CelT, within: CelT): boolean {
  if (exact(t, within)) return false;
  if (within.k === 'param') {
    const sub = m.get(within.name);
    return sub === undefined || notReferencedIn(m, t, sub);
  }
  return params(within).every((p) => notReferencedIn(m, t, p));
}

function validSubstitution(m: Mapping, t1: CelT, t2: CelT & { k: 'param' }): { valid: boolean; hasSub: boolean } {
  if (exact(t1, t2)) return { valid: true, hasSub: true };
  const sub = m.get(t2.name);
  if (sub) {
    if (exact(t1, sub)) return { valid: true, hasSub: true };
    if (assignable(m, t1, sub)) {
      const general = mostGeneral(t1, sub);
      if (notReferencedIn(m, t2, general)) m.set(t2.name, general);
      return { valid: true, hasSub: true };
    }
    return { valid: false, hasSub: true };
  }
  if (notReferencedIn(m, t2, t1)) {
    m.set(t2.name, t1);
    return { valid: true, hasSub: false };
  }
  return { valid: false, hasSub: false };
}

/** internalIsAssignable: may bind type parameters in `m`. */
export function assignable(m: Mapping, t1: CelT, t2: CelT): boolean {
  if (t2.k === 'param') {
    const r = validSubstitution(m, t1, t2);
    if (r.valid) return true;
    if (r.hasSub) return false;
  }
  if (t1.k === 'param') return validSubstitution(m, t2, t1).valid;
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.k === 'null') return isNullable(t2);
  if (t2.k === 'null') return isNullable(t1);
  if (t1.k === 'type') return t2.k === 'type';
  if (t1.k === 'list' || t1.k === 'map') {
    const p1 = params(t1);
    const p2 = params(t2);
    return t1.k === t2.k && p1.every((p, i) => assignable(m, p, p2[i]!));
  }
  return exact(t1, t2);
}

/** isAssignableList on a copy of the mapping: the bindings are kept only when every pair fits. */
export function tryAssignList(m: Mapping, args: readonly CelT[], formals: readonly CelT[]): Mapping | undefined {
  if (args.length !== formals.length) return undefined;
  const trial: Mapping = new Map(m);
  return args.every((a, i) => assignable(trial, a, formals[i]!)) ? trial : undefined;
}
