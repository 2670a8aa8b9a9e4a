// Go's strconv.ParseInt (base 0) and ParseFloat, step for step, so that a flag value reads as a
// pflag-based component reads it: Go's base prefixes, `_` between digits, hexadecimal floats,
// and the same choice between "invalid syntax" and "value out of range" (ParseUint reports an
// overflow as soon as the digits read so far overflow, before it looks at what follows).

const q = (s: string) => JSON.stringify(s);
const syntaxError = (fn: string, s: string) => new Error(`strconv.${fn}: parsing ${q(s)}: invalid syntax`);
const rangeError = (fn: string, s: string) => new Error(`strconv.${fn}: parsing ${q(s)}: value out of range`);

const isDigit = (c: string) => c >= '0' && c <= '9';
const isHexLetter = (c: string) => { const l = c.toLowerCase(); return l >= 'a' && l <= 'f'; };

/** strconv's underscoreOK: `_` only between digits, or between a base prefix and a digit. */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  let hex = false;
  const p = (s[1] ?? '').toLowerCase();
  if (s.length >= 2 && s[0] === '0' && (p === 'b' || p === 'o' || p === 'x')) {
    i = 2;
    saw = '0';
    hex = p === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i] ?? '';
    if (isDigit(c) || (hex && isHexLetter(c))) { saw = '0'; continue; }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseInt(s, 0, bitSize). */
export function parseIntBase0(s: string, bitSize: number): bigint {
  if (s === '') throw syntaxError('ParseInt', s);
  const neg = s[0] === '-';
  const body = s[0] === '+' || s[0] === '-' ? s.slice(1) : s;
  let un: bigint;
  let overflow = false;
  try {
    un = parseUintBase0(body, bitSize);
  } catch (e) {
    if (!(e instanceof RangeOverflow)) throw syntaxError('ParseInt', s);
    un = e.max;
    overflow = true;
  }
  const cutoff = 1n << BigInt(bitSize - 1);
  if (overflow || (!neg && un >= cutoff) || (neg && un > cutoff)) throw rangeError('ParseInt', s);
  return neg ? -un : un;
}

/** strconv.ParseUint(s, 0, bitSize). */
export function parseUintBase0Go(s: string, bitSize: number): bigint {
  try {
    return parseUintBase0(s, bitSize);
  } catch (e) {
    throw e instanceof RangeOverflow ? rangeError('ParseUint', s) : e;
  }
}

class RangeOverflow extends Error {
  constructor(readonly max: bigint) { super('value out of range'); }
}

/** strconv.ParseUint(s, 0, bitSize), throwing RangeOverflow for a range error and a syntax error otherwise. */
function parseUintBase0(s0: string, bitSize: number): bigint {
  if (s0 === '') throw syntaxError('ParseUint', s0);
  let s = s0;
  let base = 10n;
  if (s[0] === '0') {
    const p = (s[1] ?? '').toLowerCase();
    if (s.length >= 3 && p === 'b') { base = 2n; s = s.slice(2); }
    else if (s.length >= 3 && p === 'o') { base = 8n; s = s.slice(2); }
    else if (s.length >= 3 && p === 'x') { base = 16n; s = s.slice(2); }
    else { base = 8n; s = s.slice(1); }
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  let underscores = false;
  let n = 0n;
  for (const c of s) {
    if (c === '_') { underscores = true; continue; }
    const l = c.toLowerCase();
    let d: bigint;
    if (isDigit(c)) d = BigInt(c.charCodeAt(0) - 48);
    else if (l.length === 1 && l >= 'a' && l <= 'z') d = BigInt(l.charCodeAt(0) - 87);
    else throw syntaxError('ParseUint', s0);
    if (d >= base) throw syntaxError('ParseUint', s0);
    n = n * base + d;
    if (n > maxVal) throw new RangeOverflow(maxVal);
  }
  if (underscores && !underscoreOK(s0)) throw syntaxError('ParseUint', s0);
  return n;
}

/** strconv.ParseFloat(s, 64): decimal and hexadecimal (`0x1.8p1`) forms, `_` separators, Inf, NaN. */
export function parseFloatGo(s: string): number {
  const special = /^([+-]?)(?:inf|infinity)$/i.exec(s);
  if (special) return special[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  const r = readFloat(s);
  if (r === undefined) throw syntaxError('ParseFloat', s);
  const unsigned = s.replace(/^[+-]/, '');
  const v = r.hex ? hexToFloat64(r.mantissa, r.exp2) : Number(unsigned.replaceAll('_', ''));
  const signed = r.neg ? -v : v;
  if (!Number.isFinite(signed)) throw rangeError('ParseFloat', s);
  return signed;
}

interface ReadFloat { neg: boolean; hex: boolean; mantissa: bigint; exp2: number }

/**
 * strconv's readFloat over the whole text (ParseFloat refuses anything left over as invalid
 * syntax). For hexadecimal forms it also gives the value as mantissa * 2^exp2.
 */
function readFloat(s: string): ReadFloat | undefined {
  let i = 0;
  let underscores = false;
  let neg = false;
  if (s[i] === '+') i++;
  else if (s[i] === '-') { neg = true; i++; }
  let hex = false;
  if (i + 2 < s.length && s[i] === '0' && (s[i + 1] ?? '').toLowerCase() === 'x') { hex = true; i += 2; }
  let sawDot = false;
  let sawDigits = false;
  let mantissa = 0n;
  let fracDigits = 0;
  for (; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '_') { underscores = true; continue; }
    if (c === '.') {
      if (sawDot) break;
      sawDot = true;
      continue;
    }
    if (isDigit(c) || (hex && isHexLetter(c))) {
      sawDigits = true;
      if (hex) mantissa = mantissa * 16n + BigInt(parseInt(c, 16));
      if (sawDot) fracDigits++;
      continue;
    }
    break;
  }
  if (!sawDigits) return undefined;
  let exp = 0;
  if (i < s.length && (s[i] ?? '').toLowerCase() === (hex ? 'p' : 'e')) {
    i++;
    if (i >= s.length) return undefined;
    let esign = 1;
    if (s[i] === '+') i++;
    else if (s[i] === '-') { i++; esign = -1; }
    if (i >= s.length || !isDigit(s[i] ?? '')) return undefined;
    let e = 0;
    for (; i < s.length && (isDigit(s[i] ?? '') || s[i] === '_'); i++) {
      if (s[i] === '_') { underscores = true; continue; }
      if (e < 10000) e = e * 10 + (s.charCodeAt(i) - 48);
    }
    exp = e * esign;
  } else if (hex) {
    return undefined; // a hexadecimal mantissa needs its p exponent
  }
  if (underscores && !underscoreOK(s.slice(0, i))) return undefined;
  if (i !== s.length) return undefined;
  return { neg, hex, mantissa, exp2: exp - 4 * fracDigits };
}

/** m * 2^e rounded to the nearest float64, ties to even (what atofHex computes). */
function hexToFloat64(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  // Keep 53 significant bits, or fewer where the result is subnormal (below 2^-1022).
  const keep = Math.min(53, bits + e + 1074);
  if (keep <= 0) {
    // Below half the smallest subnormal (or exactly half: ties to even, i.e. to zero) is zero.
    return keep === 0 && m > 1n << BigInt(bits - 1) ? 2 ** -1074 : 0;
  }
  const shift = bits - keep;
  if (shift > 0) {
    const sh = BigInt(shift);
    let q = m >> sh;
    const rest = m & ((1n << sh) - 1n);
    const half = 1n << (sh - 1n);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q++;
    m = q;
    e += shift;
  }
  // e >= -1074 now and m has at most 54 bits (53 and a carry): 2 ** e and the product are exact,
  // or Infinity where the value is past float64's largest.
  return Number(m) * 2 ** e;
}
