// The pieces of Go's time.Parse (src/time/format.go) that every layout uses, for plat's two ports
// of it: metav1.Time's RFC 3339 layouts (core/api/go-time.ts) and encoding/asn1's UTCTime and
// GeneralizedTime layouts (core/crypto/go-asn1-time.ts). Go parses bytes, so these read bytes.

/** Go's time-package quote: `"` and `\` escaped, bytes below space or above 0x7f as \xNN. */
export function goTimeQuote(s: Uint8Array | string): string {
  const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  let out = '"';
  for (const b of bytes) {
    // A multi-byte rune's bytes are all >= 0x80, so Go's per-rune escaping is per-byte here.
    if (b < 0x20 || b >= 0x80) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += (b === 0x22 || b === 0x5c ? '\\' : '') + String.fromCharCode(b);
  }
  return `${out}"`;
}

export const isDigit = (s: Uint8Array, i: number): boolean => i < s.length && s[i]! >= 0x30 && s[i]! <= 0x39;

/** Go's errBad: the element does not fit its layout. */
export const BAD = Symbol('errBad');

/** getnum: one or two digits (`fixed`: exactly two); the number and the rest. */
export function getnum(s: Uint8Array, fixed: boolean): [number, Uint8Array] | typeof BAD {
  if (!isDigit(s, 0)) return BAD;
  if (!isDigit(s, 1)) return fixed ? BAD : [s[0]! - 0x30, s.subarray(1)];
  return [(s[0]! - 0x30) * 10 + (s[1]! - 0x30), s.subarray(2)];
}

/** atoi: an optional sign, then digits only (none at all reads as 0; the sign is why `.+12345` passes as a fraction). */
export function atoi(s: Uint8Array): number | typeof BAD {
  let i = 0;
  const neg = s[0] === 0x2d;
  if (s[0] === 0x2d || s[0] === 0x2b) i++;
  let x = 0;
  for (; i < s.length; i++) {
    if (!isDigit(s, i)) return BAD;
    x = x * 10 + (s[i]! - 0x30);
  }
  return neg ? -x : x;
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
/** The days of `month` (1-12) in `year`. */
export const daysIn = (month: number, year: number): number => (month === 2 && isLeap(year) ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!);
