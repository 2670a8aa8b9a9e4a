// YAML as kubectl's `-o yaml` writes it: sigs.k8s.io/yaml turns the object's JSON into go-yaml v2
// values and marshals them, so keys come in go-yaml's order and every scalar gets the style
// go-yaml's emitter picks (block style, width 80, indent 2, sequences in a mapping not indented).
// Strings a YAML 1.1 reader would take for something else (`on`, `n`, `0o17`, a timestamp, `1:20`)
// are double-quoted; strings plain style cannot carry (`a: b`, a leading `*`) single-quoted; text
// with a newline a literal block (`|-`); text with characters YAML cannot print (a tab, U+2028)
// double-quoted with escapes. This file ports those rules for JSON data (no anchors, tags or flow
// style but `{}` and `[]`), go-yaml's quirks included, so the bytes are kubectl's.

const WIDTH = 80;
const INDENT = 2;

const isSpace = (c: string | undefined) => c === ' ';
const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const isBreak = (c: string | undefined) => c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlankz = (c: string | undefined) => isBlank(c) || isBreak(c) || c === '\0';

/** go-yaml's is_printable (what may appear unescaped), by code point; astral characters are not. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

// ---- Which strings go-yaml's resolver reads as something other than a string (resolve.go).

const NON_STRINGS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO',
  'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF',
  '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF']);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
// Go's strconv.ParseInt/ParseUint with base 0 (underscores already removed), and the 0b forms.
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
// Go's strconv.ParseFloat for a value starting with '.': decimal, or hex with a p exponent.
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;

/** time.Parse of the layouts go-yaml tries (2006-1-2, then 15:4:5.999999999 after T and with Z07:00, or after spaces). */
function isTimestamp(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt]| +)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, sec, zone] = m;
  const month = Number(mo);
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > new Date(Date.UTC(Number(y), month, 0)).getUTCDate()) return false;
  if (sep === undefined) return true;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return false;
  // The T layouts need a zone; the space layout has none. Go allows offsets up to 24:60.
  if (sep.startsWith(' ') === (zone !== undefined)) return false;
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4)) > 60)) return false;
  return true;
}

/** Whether go-yaml would write `s` plain: it resolves to a string and is no base 60 float. */
function plainIsString(s: string): boolean {
  if (NON_STRINGS.has(s)) return false;
  const first = s[0]!;
  if (first === '.') return !GO_DOT_FLOAT.test(s);
  if (/[-+0-9]/.test(first)) {
    if (isTimestamp(s)) return false;
    const plain = s.replace(/_/g, '');
    if (GO_INT.test(plain) || YAML_FLOAT.test(plain)) return false;
    if (BASE60_FLOAT.test(s)) return false;
  }
  return true;
}

// ---- go-yaml's key order (sorter.go): digit runs compare as numbers, non-letters before letters.

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
const digit = (c: string) => c.codePointAt(0)! - 48;

function goKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i]!;
    const y = br[i]!;
    if (x === y) continue;
    const xl = isLetter(x);
    const yl = isLetter(y);
    if (xl && yl) return x.codePointAt(0)! < y.codePointAt(0)!;
    if (xl || yl) return yl;
    let an = 0;
    let bn = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') { an = 1; bn = 1; break; }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + digit(ar[ai]!);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + digit(br[bi]!);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return x.codePointAt(0)! < y.codePointAt(0)!;
  }
  return ar.length < br.length;
}

const byGoKey = (a: string, b: string) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0);

/**
 * The keys in the order Go's sort.Sort leaves them. The order is not transitive for some keys
 * ("1" < "01" < "0o17" < "1"), so the algorithm shows: Go sorts up to 12 elements by insertion.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 12) return keys.sort(byGoKey);
  for (let i = 1; i < keys.length; i++) {
    for (let j = i; j > 0 && goKeyLess(keys[j]!, keys[j - 1]!); j--) [keys[j - 1], keys[j]] = [keys[j]!, keys[j - 1]!];
  }
  return keys;
}

// ---- Numbers as go-yaml writes the ints and float64s it decoded from the JSON.

function goNumber(n: number): string {
  // A JSON integer token decodes to an int; JavaScript writes every integer below 1e21 as one.
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  if (Number.isNaN(n)) return '.nan';
  if (!Number.isFinite(n)) return n > 0 ? '.inf' : '-.inf';
  // strconv.FormatFloat(f, 'g', -1, 64): shortest digits, %e when the exponent is < -4 or >= 6.
  const [mantissa, e] = n.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

// ---- The emitter (emitterc.go), for block mappings and sequences of scalars.

type Style = 'plain' | 'single' | 'double' | 'literal';

interface Analysis { multiline: boolean; blockPlain: boolean; singleQuoted: boolean; block: boolean }

/** yaml_emitter_analyze_scalar: which styles can carry `cs` (its code points). */
function analyze(cs: readonly string[]): Analysis {
  if (cs.length === 0) return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const text = cs.join('');
  if (text.startsWith('---') || text.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  cs.forEach((c, i) => {
    const followedByWhitespace = i + 1 >= cs.length || isBlank(cs[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':' || c === '-') && followedByWhitespace) blockIndicators = true;
    } else if (c === ':' && followedByWhitespace) blockIndicators = true;
    else if (c === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c)) special = true;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (i === cs.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cs.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
  });
  return {
    multiline: lineBreaks,
    blockPlain: !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || special || lineBreaks || blockIndicators),
    singleQuoted: !(breakSpace || spaceBreak || special),
    block: !(trailingSpace || spaceBreak || special),
  };
}

const ESCAPES: Record<number, string> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e', 0x22: '"', 0x5c: '\\',
  0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

function escape(c: string): string {
  const cp = c.codePointAt(0)!;
  const short = ESCAPES[cp];
  if (short) return short;
  const [letter, width] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
  return letter + cp.toString(16).toUpperCase().padStart(width, '0');
}

class Emitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  private put(c: string): void { this.out += c; this.column++; }
  private putBreak(): void { this.out += '\n'; this.column = 0; }
  private writeBreak(c: string): void {
    if (c === '\n') this.putBreak();
    else { this.out += c; this.column = 0; }
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const c of text) this.put(c);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? INDENT : 0;
    else if (!indentless) this.indent += INDENT;
  }

  private popIndent(): void { this.indent = this.indents.pop() ?? -1; }

  node(value: unknown, mapping: boolean): void {
    if (Array.isArray(value)) this.sequence(value, mapping);
    else if (value !== null && typeof value === 'object') this.mapping(value as Record<string, unknown>);
    else if (typeof value === 'string') this.scalar(value, value.includes('\n') ? 'literal' : plainIsString(value) ? 'plain' : 'double', false);
    else this.scalar(typeof value === 'number' ? goNumber(value) : value === undefined || value === null ? 'null' : String(value), 'plain', false);
  }

  private empty(open: string, close: string): void {
    this.indicator(open, true, true, false);
    this.indicator(close, false, false, false);
  }

  private sequence(items: readonly unknown[], mapping: boolean): void {
    if (items.length === 0) { this.empty('[', ']'); return; }
    this.increaseIndent(false, mapping && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item, false);
    }
    this.popIndent();
  }

  private mapping(obj: Record<string, unknown>): void {
    const keys = sortKeys(Object.keys(obj).filter((k) => obj[k] !== undefined));
    if (keys.length === 0) { this.empty('{', '}'); return; }
    this.increaseIndent(false, false);
    for (const key of keys) {
      this.writeIndent();
      const keyStyle: Style = key.includes('\n') ? 'literal' : plainIsString(key) ? 'plain' : 'double';
      // yaml_emitter_check_simple_key: one line, at most 128 bytes; else `? key` then `: value`.
      if (!analyze([...key]).multiline && Buffer.byteLength(key) <= 128) {
        this.scalar(key, keyStyle, true);
        this.indicator(':', false, false, false);
      } else {
        this.indicator('?', true, false, true);
        this.scalar(key, keyStyle, false);
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(obj[key], true);
    }
    this.popIndent();
  }

  /** yaml_emitter_select_scalar_style, then the writer of that style. */
  private scalar(text: string, requested: Style, simpleKey: boolean): void {
    const cs = [...text];
    const a = analyze(cs);
    let style = requested;
    if (simpleKey && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlain || (cs.length === 0 && simpleKey))) style = 'single';
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    this.increaseIndent(true, false);
    if (style === 'literal') this.literal(cs);
    else this.flowScalar(cs, style, !simpleKey);
    this.popIndent();
  }

  /** Plain, single- and double-quoted scalars: folded at a space once past the width. */
  private flowScalar(cs: readonly string[], style: Exclude<Style, 'literal'>, allowBreaks: boolean): void {
    const quote = style === 'single' ? '\'' : style === 'double' ? '"' : '';
    if (quote) this.indicator(quote, true, false, false);
    else if (!this.whitespace) this.put(' ');
    let spaces = false;
    let breaks = false;
    // go-yaml's is_bom looks at the value's first character, not the current one: after a leading
    // U+FEFF every character is escaped.
    const escapeAll = style === 'double' && cs[0] === '\ufeff';
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      const fold = allowBreaks && !spaces && this.column > WIDTH && (style === 'plain' || (i > 0 && i < cs.length - 1));
      if (style === 'double' && (escapeAll || !isPrintable(c) || isBreak(c) || c === '"' || c === '\\')) {
        this.put('\\');
        for (const e of escape(c)) this.put(e);
        spaces = false;
      } else if (isSpace(c)) {
        if (fold && (style === 'double' || !isSpace(cs[i + 1]))) {
          this.writeIndent();
          // A folded line's leading spaces are dropped by readers: the escape keeps the next one.
          if (style === 'double' && isSpace(cs[i + 1])) this.put('\\');
        } else {
          this.put(c);
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === '\'' && style === 'single') this.put('\'');
        this.put(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    if (quote) this.indicator(quote, false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /** A literal block: `|`, an indentation hint for leading space, the chomping indicator. */
  private literal(cs: readonly string[]): void {
    this.indicator('|', true, false, false);
    if (isSpace(cs[0]) || isBreak(cs[0])) this.indicator(String(INDENT), false, false, false);
    const n = cs.length;
    const chomp = !isBreak(cs[n - 1]) ? '-' : n === 1 || isBreak(cs[n - 2]) ? '+' : '';
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cs) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NEL_RUN = / *\u0085(?: *\u0085)* */g;

/**
 * The value as go-yaml reads kubectl's JSON of it: a lone surrogate becomes U+FFFD, undefined
 * members go, and U+0085 (which Go's JSON leaves raw) is a line break inside the quoted scalar,
 * folded with the spaces around it: one to a space, n to n-1 newlines.
 */
function asGoDecodes(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(LONE_SURROGATE, '\ufffd').replace(NEL_RUN, (run) => {
      const n = run.split('\u0085').length - 1;
      return n === 1 ? ' ' : '\n'.repeat(n - 1);
    });
  }
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : asGoDecodes(v)));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [asGoDecodes(k) as string, asGoDecodes(v)]));
}

/** One document, as sigs.k8s.io/yaml's Marshal writes the value's JSON. */
export function goYaml(value: unknown): string {
  const e = new Emitter();
  e.node(asGoDecodes(value ?? null), false);
  e.writeIndent();
  return e.out;
}
