// Go's strconv.Quote (the %q of upstream's messages) for text plat quotes: API field errors and
// the crypto core's x509 errors alike. Non-ASCII characters are kept as they are.
import { Buffer } from 'node:buffer';

const ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\',
};

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const e = ESCAPES[ch];
    if (e !== undefined) out += e;
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

/**
 * strconv.Quote of a Go string held as bytes: well-formed UTF-8 quoted as goQuote does, and each
 * byte that is not part of well-formed UTF-8 written as \xNN (Go's utf8.DecodeRune gives RuneError, width 1).
 */
export function goQuoteBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = utf8Width(bytes, i);
    if (n === 0) {
      out += '\\x' + bytes[i]!.toString(16).padStart(2, '0');
      i++;
    } else {
      out += goQuote(Buffer.from(bytes.subarray(i, i + n)).toString('utf8')).slice(1, -1);
      i += n;
    }
  }
  return `"${out}"`;
}

/** The length of the well-formed UTF-8 sequence at i (no overlongs, surrogates or > U+10FFFF), else 0. */
function utf8Width(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  const c1 = b[i + 1]!;
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (c1 < lo || c1 > hi) return 0;
  for (let k = 2; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}
