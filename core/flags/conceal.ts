// A sensitive flag's value kept out of the texts that refuse it (they go to the log and the
// terminal). Masking the whole value is not enough: Go's parse errors quote it escaped
// (`parsing "12\"ab"`) or quote a piece of it (time's `unknown unit "xs3cr3t"`, an enum's
// `"s3cr3t" is not one of`), pflag's key=value error names one pair bare (`tok,en` → `en must be
// formatted as key=value`), and a config file's list is refused element by element.
import { MASKED } from '../go-strip-password.js';
import { splitCsv } from './parse-value.js';

/**
 * Shorter pieces are masked outside quotes only as whole words: anywhere, they would mask the
 * letters of the message itself (`a` in `key=value`).
 */
const MIN_ANYWHERE = 4;

/** The texts of a value that may be secret: itself, its items or map values, its CSV fields and their `=` values. */
function collect(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    out.add(value);
    let fields: string[] = [];
    try {
      fields = splitCsv(value);
    } catch {
      // A malformed line: its parts are inside the whole, which is masked.
    }
    for (const field of fields) {
      out.add(field);
      const eq = field.indexOf('=');
      if (eq !== -1) out.add(field.slice(eq + 1)).add(field.slice(eq + 1).trim());
    }
  } else if (typeof value === 'number' || typeof value === 'boolean') out.add(String(value));
  else if (Array.isArray(value)) for (const x of value) collect(x, out);
  else if (value !== null && typeof value === 'object') for (const x of Object.values(value)) collect(x, out);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function unquote(q: string): string {
  try {
    return String(JSON.parse(q));
  } catch {
    return q.slice(1, -1);
  }
}

/**
 * `text` with every part of `values` (the raw text, the given or parsed value) replaced by
 * `<masked>`; `known` are texts that are no secret (an enum's allowed values, which the text lists).
 */
export function conceal(text: string, known: readonly string[], ...values: unknown[]): string {
  const set = new Set<string>();
  for (const v of values) collect(v, set);
  set.delete('');
  for (const k of known) set.delete(k);
  const secrets = [...set].sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return text;
  const bareRe = new RegExp(secrets.map((s) => (s.length >= MIN_ANYWHERE ? escapeRegExp(s) : `(?<![A-Za-z0-9])${escapeRegExp(s)}(?![A-Za-z0-9])`)).join('|'), 'g');
  const maskBare = (s: string): string => s.replace(bareRe, MASKED);
  // One pass, so that a mask is never masked again.
  const pieces = text.split(/("(?:[^"\\]|\\.)*")/);
  return pieces.map((piece, i) => {
    if (i % 2 === 0) return maskBare(piece);
    const inner = unquote(piece);
    return inner !== '' && secrets.some((s) => s.includes(inner)) ? JSON.stringify(MASKED) : maskBare(piece);
  }).join('');
}
