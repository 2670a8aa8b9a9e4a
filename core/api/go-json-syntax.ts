// The syntax errors of Go's encoding/json (its scanner's checkValid), which upstream's handlers
// put in their messages. JSON.parse accepts the same language but words its errors differently,
// so a body JSON.parse refused is scanned again here for the message a Go server would give.
// Only the failure path pays for this; the quirks are Go's own: the end of input is fed to the
// scanner as one space, so `tr` fails with "invalid character ' ' in literal true".

/** Go refuses deeper documents; JSON.parse takes them, so a body that could be one is scanned too. */
export const MAX_NESTING_DEPTH = 10000;

type Step = (c: number) => void;

class SyntaxError_ extends Error {}

/** Go's message for the first syntax error in `data`, or undefined when Go would accept it. */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  const s = new Scanner();
  try {
    for (const c of data) s.step(c);
    return s.eof();
  } catch (e) {
    if (e instanceof SyntaxError_) return e.message;
    throw e;
  }
}

const enum Parse { ObjectKey, ObjectValue, ArrayValue }

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Scanner {
  step: Step = (c) => this.beginValue(c);
  private parseState: Parse[] = [];
  private endTop = false;
  private pending: string | undefined;

  eof(): string | undefined {
    if (this.pending !== undefined) return this.pending;
    if (this.endTop) return undefined;
    this.step(0x20);
    if (this.endTop) return this.pending;
    return 'unexpected end of JSON input';
  }

  private fail(c: number, context: string): never {
    throw new SyntaxError_(`invalid character ${goQuoteChar(c)} ${context}`);
  }

  private to(step: Step): void { this.step = step; }

  private beginValueOrEmpty(c: number): void {
    if (isSpace(c)) return;
    if (c === 0x5d) return this.endValue(c);
    this.beginValue(c);
  }

  private beginValue(c: number): void {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: return this.push(c, Parse.ObjectKey, (d) => this.beginStringOrEmpty(d));
      case 0x5b: return this.push(c, Parse.ArrayValue, (d) => this.beginValueOrEmpty(d));
      case 0x22: return this.to((d) => this.inString(d));
      case 0x2d: return this.to((d) => this.neg(d));
      case 0x30: return this.to((d) => this.zero(d));
      case 0x74: return this.to(this.literal('true', 1));
      case 0x66: return this.to(this.literal('false', 1));
      case 0x6e: return this.to(this.literal('null', 1));
    }
    if (c >= 0x31 && c <= 0x39) return this.to((d) => this.one(d));
    this.fail(c, 'looking for beginning of value');
  }

  private push(c: number, state: Parse, next: Step): void {
    this.parseState.push(state);
    if (this.parseState.length > MAX_NESTING_DEPTH) this.fail(c, 'exceeded max depth');
    this.to(next);
  }

  private pop(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.endTop = true;
      this.to((d) => this.afterTop(d));
    } else this.to((d) => this.endValue(d));
  }

  private beginStringOrEmpty(c: number): void {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      this.parseState[this.parseState.length - 1] = Parse.ObjectValue;
      return this.endValue(c);
    }
    this.beginString(c);
  }

  private beginString(c: number): void {
    if (isSpace(c)) return;
    if (c === 0x22) return this.to((d) => this.inString(d));
    this.fail(c, 'looking for beginning of object key string');
  }

  private endValue(c: number): void {
    const n = this.parseState.length;
    if (n === 0) {
      this.endTop = true;
      this.to((d) => this.afterTop(d));
      return this.afterTop(c);
    }
    if (isSpace(c)) return this.to((d) => this.endValue(d));
    switch (this.parseState[n - 1]) {
      case Parse.ObjectKey:
        if (c === 0x3a) {
          this.parseState[n - 1] = Parse.ObjectValue;
          return this.to((d) => this.beginValue(d));
        }
        return this.fail(c, 'after object key');
      case Parse.ObjectValue:
        if (c === 0x2c) {
          this.parseState[n - 1] = Parse.ObjectKey;
          return this.to((d) => this.beginString(d));
        }
        if (c === 0x7d) return this.pop();
        return this.fail(c, 'after object key:value pair');
      default:
        if (c === 0x2c) return this.to((d) => this.beginValue(d));
        if (c === 0x5d) return this.pop();
        return this.fail(c, 'after array element');
    }
  }

  /** Go records this error and reports it at the next byte or at the end: the same message. */
  private afterTop(c: number): void {
    if (!isSpace(c) && this.pending === undefined) this.pending = `invalid character ${goQuoteChar(c)} after top-level value`;
    if (this.pending !== undefined) this.to(() => { throw new SyntaxError_(this.pending); });
  }

  private inString(c: number): void {
    if (c === 0x22) return this.to((d) => this.endValue(d));
    if (c === 0x5c) return this.to((d) => this.inStringEsc(d));
    if (c < 0x20) this.fail(c, 'in string literal');
  }

  private inStringEsc(c: number): void {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) return this.to((d) => this.inString(d));
    if (c === 0x75) return this.to(this.escU(4));
    this.fail(c, 'in string escape code');
  }

  private escU(left: number): Step {
    return (c) => {
      if (!isHex(c)) this.fail(c, 'in \\u hexadecimal character escape');
      this.to(left === 1 ? (d) => this.inString(d) : this.escU(left - 1));
    };
  }

  private neg(c: number): void {
    if (c === 0x30) return this.to((d) => this.zero(d));
    if (c >= 0x31 && c <= 0x39) return this.to((d) => this.one(d));
    this.fail(c, 'in numeric literal');
  }

  private one(c: number): void {
    if (isDigit(c)) return;
    this.zero(c);
  }

  private zero(c: number): void {
    if (c === 0x2e) return this.to((d) => this.dot(d));
    if (c === 0x65 || c === 0x45) return this.to((d) => this.exp(d));
    this.endValue(c);
  }

  private dot(c: number): void {
    if (isDigit(c)) return this.to((d) => this.dot0(d));
    this.fail(c, 'after decimal point in numeric literal');
  }

  private dot0(c: number): void {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) return this.to((d) => this.exp(d));
    this.endValue(c);
  }

  private exp(c: number): void {
    if (c === 0x2b || c === 0x2d) return this.to((d) => this.expSign(d));
    this.expSign(c);
  }

  private expSign(c: number): void {
    if (isDigit(c)) return this.to((d) => this.exp0(d));
    this.fail(c, 'in exponent of numeric literal');
  }

  private exp0(c: number): void {
    if (isDigit(c)) return;
    this.endValue(c);
  }

  /** true, false and null after their first letter: each next byte must be the word's. */
  private literal(word: string, at: number): Step {
    return (c) => {
      const want = word.charCodeAt(at);
      if (c !== want) this.fail(c, `in literal ${word} (expecting '${word[at]}')`);
      this.to(at + 1 === word.length ? (d) => this.endValue(d) : this.literal(word, at + 1));
    };
  }
}

/**
 * Go's quoteChar: a byte as a one-character Go literal. A byte above 0x7f is taken as the code
 * point of that value (Go's string(byte)), so the lead byte of "é" shows as 'Ã'.
 */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${goQuoteRune(c)}'`;
}

const SHORT_ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };

/** strconv.Quote's body for one code point below 0x100: printable ones as they are, others escaped. */
function goQuoteRune(c: number): string {
  const short = SHORT_ESCAPES[c];
  if (short) return short;
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  // Latin-1's C1 controls, the no-break space and the soft hyphen are not graphic to strconv.IsPrint.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `\\u${c.toString(16).padStart(4, '0')}`;
  return String.fromCharCode(c);
}
