// Field selectors: the `fieldSelector=` query syntax (apimachinery fields.ParseSelector). Terms
// are `field=value`, `field==value` or `field!=value`, joined by `,` meaning AND. Field names take
// no escaping: a term splits at its first operator. In values, `\,` `\=` and `\\` stand for the
// literal characters; any other backslash sequence, or a bare `,`/`=` in a value, is an error.
// (`!` needs no escape, and upstream rejects `\!` as an invalid sequence, so we do too.)
// Every error is a 400.
import { errors } from '../errors.js';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is recorded as `=`: they mean the same. */
  readonly operator: FieldOperator;
  /** Unescaped. */
  readonly value: string;
}

export interface FieldSelector {
  /** In upstream's order: sorted by the term's source text. */
  readonly requirements: readonly FieldRequirement[];
  /** True when the selector matches everything. */
  readonly empty: boolean;
  /** An absent field reads as "" (fields.Set.Get), so `f=` matches objects without `f`. */
  matches(fields: Readonly<Record<string, string>>): boolean;
  /**
   * Throws 400 for the first field outside `allowed`, as a field-label conversion does: by default
   * with the registered conversions' `field label not supported: <label>`, else `message`'s text.
   */
  check(allowed: readonly string[], message?: (label: string) => string): void;
  /** The value `field=value` pins (RequiresExactMatch), e.g. the `metadata.name` fast path. */
  requiredValue(field: string): string | undefined;
  /** The canonical form, values escaped (fields.Selector.String()). */
  toString(): string;
}

const OPERATORS: readonly string[] = ['!=', '==', '=']; // `==` before `=`, or `a==b` would read as value "=b"

export function parseFieldSelector(s: string): FieldSelector {
  const terms = splitTerms(s).sort(compareBytes);
  const reqs: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const split = splitTerm(term);
    if (!split) throw errors.badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    reqs.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value: unescapeFieldValue(split.rhs) });
  }
  return fieldSelector(reqs);
}

/** Selects everything. */
export const EVERYTHING_FIELDS: FieldSelector = fieldSelector([]);

function fieldSelector(requirements: FieldRequirement[]): FieldSelector {
  const reqs = Object.freeze(requirements);
  return Object.freeze({
    requirements: reqs,
    empty: reqs.length === 0,
    matches(fields: Readonly<Record<string, string>>): boolean {
      return reqs.every((r) => {
        const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : '';
        return r.operator === '=' ? v === r.value : v !== r.value;
      });
    },
    check(allowed: readonly string[], message = (label: string) => `field label not supported: ${label}`): void {
      const bad = reqs.find((r) => !allowed.includes(r.field));
      if (bad) throw errors.badRequest(message(bad.field));
    },
    requiredValue(field: string): string | undefined {
      return reqs.find((r) => r.field === field && r.operator === '=')?.value;
    },
    toString(): string {
      return reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
    },
  });
}

/** Splits at commas not preceded by a backslash; escapes are kept for unescapeFieldValue. */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') { terms.push(s.slice(start, i)); start = i + 1; }
  }
  terms.push(s.slice(start));
  return terms;
}

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.EscapeValue: `\` `,` `=` get a backslash so a value can carry them. */
export function escapeFieldValue(v: string): string {
  return v.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue, with its error texts (a bare character is reported by code point, as Go's %v of a rune prints). */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let escaped = false;
  for (const c of s) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (escaped) throw errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Go sorts strings by UTF-8 bytes; JavaScript's default compares UTF-16 units. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
