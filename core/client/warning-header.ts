// The texts of an answer's `Warning` headers (RFC 7234 `299 - "text"`, as the API server writes
// them for admission warnings and deprecations), for a client that shows them as kubectl does.

const WARNING = /(\d{3}) (\S+) "((?:[^"\\]|\\.)*)"(?: "[^"]*")?/g;

export function warningTexts(header: string | readonly string[] | undefined): string[] {
  const lines = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const out: string[] = [];
  for (const line of lines) {
    for (const m of line.matchAll(WARNING)) out.push(m[3]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}
