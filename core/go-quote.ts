// Go's strconv.Quote (the %q of upstream's messages) for text plat quotes: API field errors and
// the crypto core's x509 errors alike. Non-ASCII characters are kept as they are.
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
