// One value of a raw query as Go's url.Values.Get reads it from req.URL.Query(): pairs split on
// '&', a pair holding ';' or a malformed escape dropped whole (ParseQuery's errors, which the
// handlers ignore), '+' a space, and the first value of the key wins. URLSearchParams keeps what
// Go drops, so `?pretty=1;x` or `?pretty=%zz&pretty=1` would read differently.
import { unescapeGoPath } from './url-path.js';

/** net/url's unescape in query mode: as in a path, but '+' is a space. */
const unescapeGoQuery = (s: string): string | undefined => unescapeGoPath(s.replace(/\+/g, ' '));

export function goQueryGet(rawQuery: string, key: string): string {
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    if (unescapeGoQuery(eq < 0 ? pair : pair.slice(0, eq)) !== key) continue;
    const value = unescapeGoQuery(eq < 0 ? '' : pair.slice(eq + 1));
    if (value !== undefined) return value;
  }
  return '';
}
