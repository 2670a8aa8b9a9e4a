// Label selectors: the `labelSelector=` query syntax (apimachinery labels.Parse, lexer and parser
// ported token for token so that error texts match) and the meta/v1 LabelSelector struct
// (LabelSelectorAsSelector). Grammar, comma meaning AND:
//
//   selector    := '' | requirement (',' requirement)*
//   requirement := ['!'] KEY
//                | KEY ('=' | '==' | '!=' | '>' | '<') VALUE?
//                | KEY ('in' | 'notin') '(' VALUE (',' VALUE)* ')'
//
// `>`/`<` (integer comparison) are part of upstream's string syntax and kept; the struct form
// offers only In, NotIn, Exists and DoesNotExist, as upstream's does. Every error is a 400.
import { errors } from '../errors.js';
import { aggregateFieldErrors, fieldError, goQuote, type FieldError } from '../field-errors.js';
import { labelValueErrors, qualifiedNameErrors } from './label-syntax.js';

/** selection.Operator spellings. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated when parsed from a string; empty for exists and `!`. */
  readonly values: readonly string[];
}

export interface LabelSelector {
  /** Sorted by key. */
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector matches everything (no requirements). */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** The canonical string form (labels.Selector.String()). */
  toString(): string;
}

export interface LabelSelectorRequirementObject { key: string; operator: string; values?: readonly string[] }
export interface LabelSelectorObject {
  matchLabels?: Readonly<Record<string, string>>;
  matchExpressions?: readonly LabelSelectorRequirementObject[];
}

export function parseLabelSelector(s: string): LabelSelector {
  try {
    return selector(new Parser(s).parse());
  } catch (e) {
    if (e instanceof SyntaxFailure) throw errors.badRequest(e.message);
    throw e;
  }
}

/** meta/v1 LabelSelectorAsSelector: `null`/absent selects nothing, `{}` everything. */
export function labelSelectorFromObject(ps: LabelSelectorObject | null | undefined): LabelSelector {
  if (ps === null || ps === undefined) return NOTHING;
  const reqs: LabelRequirement[] = [];
  try {
    for (const key of Object.keys(ps.matchLabels ?? {}).sort()) {
      reqs.push(newRequirement(key, '=', [ps.matchLabels![key]!], ''));
    }
    for (const expr of ps.matchExpressions ?? []) {
      const op = STRUCT_OPERATORS[expr.operator];
      if (!op || !Object.prototype.hasOwnProperty.call(STRUCT_OPERATORS, expr.operator)) {
        throw new SyntaxFailure(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
      }
      reqs.push(newRequirement(expr.key, op, [...(expr.values ?? [])], ''));
    }
  } catch (e) {
    if (e instanceof SyntaxFailure) throw errors.badRequest(e.message);
    throw e;
  }
  return selector(reqs);
}

const STRUCT_OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** Selects every object, labelled or not. */
export const EVERYTHING: LabelSelector = selector([]);
/** Selects no object (a nil LabelSelector). */
export const NOTHING: LabelSelector = Object.freeze({
  requirements: [], empty: false, matches: () => false, toString: () => '',
});

function selector(requirements: LabelRequirement[]): LabelSelector {
  // Stable sort: requirements on the same key keep their written order.
  const reqs = Object.freeze([...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  return Object.freeze({
    requirements: reqs,
    empty: reqs.length === 0,
    matches: (labels: Readonly<Record<string, string>> | undefined) => reqs.every((r) => requirementMatches(r, labels ?? {})),
    toString: () => reqs.map(requirementString).join(','),
  });
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'in': case '=': case '==': return has && r.values.includes(value);
    case 'notin': case '!=': return !has || !r.values.includes(value);
    case 'exists': return has;
    case '!': return !has;
    case 'gt': case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const left = parseInt64(value);
      const right = parseInt64(r.values[0]!);
      if (left === undefined || right === undefined) return false;
      return r.operator === 'gt' ? left > right : left < right;
    }
  }
}

/** strconv.ParseInt(s, 10, 64), exact. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

function requirementString(r: LabelRequirement): string {
  const sep: Partial<Record<LabelOperator, string>> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<' };
  if (r.operator === '!') return `!${r.key}`;
  if (r.operator === 'exists') return r.key;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${r.key}${sep[r.operator]}(${values})` : `${r.key}${sep[r.operator]}${values}`;
}

/** A parse or validation failure; its text becomes the 400's message. */
class SyntaxFailure extends Error {}

/**
 * labels.NewRequirement: the checks every requirement passes, whichever syntax it came from.
 * `path` is the field path upstream prefixes value errors with ('' means none).
 */
function newRequirement(key: string, operator: LabelOperator, values: string[], path: string): LabelRequirement {
  const errs: FieldError[] = [];
  const at = (f: string): string => (path ? `${path}.${f}` : f);
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) errs.push(fieldError.invalid(at('key'), key, keyErrs.join('; ')));
  switch (operator) {
    case 'in': case 'notin':
      if (values.length === 0) errs.push(fieldError.invalid(at('values'), values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (values.length !== 1) errs.push(fieldError.invalid(at('values'), values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (values.length !== 0) errs.push(fieldError.invalid(at('values'), values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (values.length !== 1) errs.push(fieldError.invalid(at('values'), values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldError.invalid(`${at('values')}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const valueErrs = labelValueErrors(v);
    if (valueErrs.length) errs.push(fieldError.invalid(`${at('values')}[${i}][${key}]`, v, valueErrs.join('; ')));
  });
  if (errs.length) throw new SyntaxFailure(aggregateFieldErrors(errs));
  return { key, operator, values };
}

// ---- lexer (labels/selector.go Lexer) ----

type Token = 'id' | 'eos' | '!' | '!=' | '(' | ')' | ',' | '=' | '==' | '>' | '<' | 'in' | 'notin';
interface Scanned { tok: Token; lit: string }

const SYMBOLS: Readonly<Record<string, Token>> = {
  '!': '!', '!=': '!=', '(': '(', ')': ')', ',': ',', '=': '=', '==': '==', '>': '>', '<': '<',
};
const KEYWORDS: Readonly<Record<string, Token>> = { in: 'in', notin: 'notin' };
const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c);

function lex(input: string): Scanned[] {
  // Go's lexer reads a NUL as end of input; a selector never continues past one.
  const nul = input.indexOf('\0');
  const s = nul >= 0 ? input.slice(0, nul) : input;
  const out: Scanned[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isWhitespace(s[i]!)) i++;
    if (i >= s.length) { out.push({ tok: 'eos', lit: '' }); return out; }
    if (isSpecial(s[i]!)) {
      // Longest run of symbols that still spells a token: `!=` is one token, `=(` two.
      let lit = s[i]!;
      i++;
      while (i < s.length && isSpecial(s[i]!) && SYMBOLS[lit + s[i]!] !== undefined) lit += s[i++]!;
      out.push({ tok: SYMBOLS[lit]!, lit });
    } else {
      const start = i;
      while (i < s.length && !isSpecial(s[i]!) && !isWhitespace(s[i]!)) i++;
      const lit = s.slice(start, i);
      out.push({ tok: Object.prototype.hasOwnProperty.call(KEYWORDS, lit) ? KEYWORDS[lit]! : 'id', lit });
    }
  }
}

// ---- parser (labels/selector.go Parser) ----

/** In Values context the keywords `in`/`notin` are plain identifiers (a key or value may be "in"). */
type Context = 'keyAndOperator' | 'values';
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private readonly items: Scanned[];
  private pos = 0;
  constructor(input: string) { this.items = lex(input); }

  private peek(ctx: Context): Scanned { return this.adjust(this.items[Math.min(this.pos, this.items.length - 1)]!, ctx); }
  private next(ctx: Context): Scanned {
    const item = this.peek(ctx);
    if (this.pos < this.items.length - 1) this.pos++;
    return item;
  }
  private adjust(item: Scanned, ctx: Context): Scanned {
    return ctx === 'values' && (item.tok === 'in' || item.tok === 'notin') ? { tok: 'id', lit: item.lit } : item;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek('values');
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SyntaxFailure(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (e) {
        if (e instanceof SyntaxFailure) throw new SyntaxFailure(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const sep = this.next('values');
      if (sep.tok === 'eos') return reqs;
      if (sep.tok !== ',') throw new SyntaxFailure(`found '${sep.lit}', expected: ',' or 'end of string'`);
      const after = this.peek('values');
      if (after.tok !== 'id' && after.tok !== '!') throw new SyntaxFailure(`found '${after.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let first = this.next('values');
    let operator: LabelOperator | undefined;
    if (first.tok === '!') { operator = '!'; first = this.next('values'); }
    if (first.tok !== 'id') throw new SyntaxFailure(`found '${first.lit}', expected: identifier`);
    const key = first.lit;
    const keyErrs = qualifiedNameErrors(key);
    // Upstream validates the key here with a nil field path, which prints as "<nil>".
    if (keyErrs.length) throw new SyntaxFailure(aggregateFieldErrors([fieldError.invalid('<nil>', key, keyErrs.join('; '))]));
    const la = this.peek('values').tok;
    if (operator === undefined && (la === 'eos' || la === ',')) operator = 'exists';
    if (operator !== undefined) return newRequirement(key, operator, [], '');

    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.setValues() : this.exactValue();
    return newRequirement(key, op, [...new Set(values)].sort(), '');
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.next('keyAndOperator');
    switch (tok) {
      case 'in': return 'in';
      case 'notin': return 'notin';
      case '=': return '=';
      case '==': return '==';
      case '!=': return '!=';
      case '>': return 'gt';
      case '<': return 'lt';
      default: throw new SyntaxFailure(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private setValues(): string[] {
    const open = this.next('values');
    if (open.tok !== '(') throw new SyntaxFailure(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.peek('values');
    if (tok === ')') { this.next('values'); return ['']; }
    if (tok !== 'id' && tok !== ',') throw new SyntaxFailure(`found '${lit}', expected: ',', ')' or identifier`);
    const values = this.identifierList();
    // Upstream reports the token seen before the list here, not the offending one; kept as is.
    if (this.next('values').tok !== ')') throw new SyntaxFailure(`found '${lit}', expected: ')'`);
    return values;
  }

  /** `a,b`, with empty members allowed: `(,a)`, `(a,)`, `(a,,b)` all include "". */
  private identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, lit } = this.next('values');
      if (tok === 'id') {
        values.push(lit);
        const after = this.peek('values');
        if (after.tok === ',') continue;
        if (after.tok === ')') return values;
        throw new SyntaxFailure(`found '${after.lit}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        if (values.length === 0) values.push('');
        const after = this.peek('values').tok;
        if (after === ')') { values.push(''); return values; }
        if (after === ',') { this.next('values'); values.push(''); }
        continue;
      }
      throw new SyntaxFailure(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private exactValue(): string[] {
    const la = this.peek('values').tok;
    if (la === 'eos' || la === ',') return [''];
    const { tok, lit } = this.next('values');
    if (tok === 'id') return [lit];
    throw new SyntaxFailure(`found '${lit}', expected: identifier`);
  }
}
