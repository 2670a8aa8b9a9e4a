// The `Warning` headers of an answer, as apiserver's warning recorder (endpoints/filters/warning.go)
// adds them one warning at a time: empty and repeated texts are skipped; a text with a control
// character has no header (apimachinery's NewWarningHeader refuses it); once the texts would pass
// 4096 runes in all, every warning, those already added too, is cut to 256 runes, and warnings
// after the total is reached again are dropped.

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

// unicode.IsControl: C0, DEL and C1.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `299 - "<text>"` with `"` and `\` escaped (makeQuotedString), or undefined where Go refuses the text. */
function header(text: string): string | undefined {
  if (CONTROL.test(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, '\\$&')}"`;
}

/** Go's text would be valid UTF-8 already: its JSON decoding turns a lone surrogate into U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const runesOf = (text: string): string[] => [...text.replace(LONE_SURROGATE, '\ufffd')];

function cut(runes: string[]): { text: string; length: number } {
  const kept = runes.length > TRUNCATE_ITEM_RUNES ? runes.slice(0, TRUNCATE_ITEM_RUNES) : runes;
  return { text: kept.join(''), length: kept.length };
}

/**
 * The header values for `warnings` in the order they were recorded; `truncated` when the limit cut
 * them short (upstream then logs "exceeded max warning header size, truncating").
 */
export function warningHeaders(warnings: readonly string[]): { headers: string[]; truncated: boolean } {
  const recorded = new Set<string>();
  const ordered: string[][] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const warning of warnings) {
    if (warning.length === 0) continue;
    if (written >= TRUNCATE_AT_TOTAL_RUNES && truncating) break;
    const runes = runesOf(warning);
    const key = runes.join('');
    if (recorded.has(key)) continue;
    recorded.add(key);
    ordered.push(runes);
    const item = truncating ? cut(runes) : { text: key, length: runes.length };
    const value = header(item.text);
    if (value === undefined) continue;
    if (written + item.length <= TRUNCATE_AT_TOTAL_RUNES || truncating) {
      written += item.length;
      headers.push(value);
      continue;
    }
    // Over the limit for the first time: start again with every warning so far cut short.
    truncating = true;
    written = 0;
    headers = [];
    for (const earlier of ordered) {
      const c = cut(earlier);
      const v = header(c.text);
      if (v === undefined) continue;
      written += c.length;
      headers.push(v);
    }
  }
  return { headers, truncated: truncating };
}
