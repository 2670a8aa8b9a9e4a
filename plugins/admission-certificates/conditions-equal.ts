// apiequality.Semantic.DeepEqual for status.conditions in wire form: what CertificateSigning uses to
// decide whether a /status write touched the conditions. Go decodes into typed structs, so an
// absent list equals an empty one, an absent string equals "", and timestamps compare as instants
// (a zero metav1.Time serializes as null). Keys Go would not know (the schema keeps them out) compare
// strictly: a difference there means a check, never a skipped one.
import { isDeepStrictEqual } from 'node:util';

const TIME_FIELDS = new Set(['lastUpdateTime', 'lastTransitionTime']);

function instant(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? NaN : t;
}

const isZeroValue = (v: unknown): boolean => v === undefined || v === null || v === '';

function fieldEqual(key: string, a: unknown, b: unknown): boolean {
  if (TIME_FIELDS.has(key)) {
    const ta = instant(a);
    const tb = instant(b);
    // An unparseable time never equals anything: it cannot be shown to be unchanged.
    if (Number.isNaN(ta) || Number.isNaN(tb)) return false;
    return ta === tb;
  }
  if (isZeroValue(a) && isZeroValue(b)) return true;
  return isDeepStrictEqual(a, b);
}

function conditionEqual(a: unknown, b: unknown): boolean {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(a) || !isObj(b)) return isDeepStrictEqual(a, b);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!fieldEqual(k, a[k], b[k])) return false;
  return true;
}

export function conditionsEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((c, i) => conditionEqual(c, b[i]));
}
