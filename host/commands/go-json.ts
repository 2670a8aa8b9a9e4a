// JSON as kubectl's `-o json` writes it: Go's json.MarshalIndent of an unstructured object, four
// spaces, object keys in byte order (Go sorts map keys), and Go's string escapes, which go further
// than JSON.stringify's: <, > and & (HTML-safe), U+2028 and U+2029, and a lone surrogate (invalid
// UTF-8 to Go) as U+FFFD.

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

const hex4 = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

export function goJsonString(s: string): string {
  return `"${s.replace(/["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
    return SHORT[ch] ?? hex4(code);
  })}"`;
}

/** Go compares map keys as UTF-8 bytes; UTF-16 order differs only above U+FFFF. */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

function encode(value: unknown, indent: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + encode(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => byteOrder(a, b));
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${goJsonString(k)}: ${encode(v, inner)}`).join(',\n')}\n${indent}}`;
}

/** The whole document, newline-terminated as kubectl prints it. */
export function goJson(value: unknown): string {
  return `${encode(value, '')}\n`;
}
