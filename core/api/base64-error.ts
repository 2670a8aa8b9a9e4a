// Go's base64 strictness, apart from schema-types.ts so that decoding a kubeconfig (the node
// agent, the `plat` commands) does not load ajv.

const isNewline = (c: number) => c === 10 || c === 13;
const isAlphabet = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;

/**
 * Where Go's base64.StdEncoding.Decode (what encoding/json decodes a []byte with) stops on `s`:
 * the byte of its CorruptInputError, or -1 when `s` decodes. Quantum by quantum as its
 * decodeQuantum goes, so the offsets are Go's own: `\r` and `\n` are skipped anywhere (line-broken
 * base64 from `base64`, a YAML block), padding only ends the text, and an offset counts them too.
 */
export function base64ErrorIndex(s: string): number {
  const n = s.length;
  let si = 0;
  while (si < n) {
    for (let j = 0; j < 4; j++) {
      if (si === n) return j === 0 ? -1 : si - j;
      const c = s.charCodeAt(si++);
      if (isAlphabet(c)) continue;
      if (isNewline(c)) { j--; continue; }
      if (c !== 61 || j < 2) return si - 1;
      if (j === 2) {
        // "==" expected; the first is read.
        while (si < n && isNewline(s.charCodeAt(si))) si++;
        if (si === n) return n;
        if (s.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < n && isNewline(s.charCodeAt(si))) si++;
      return si < n ? si : -1;
    }
  }
  return -1;
}

/**
 * What Go writes back for a []byte field it decoded from `s` (base64ErrorIndex(s) < 0): the same
 * bytes in StdEncoding without line breaks, and with the unused bits of a padded last quantum
 * zero (Go's StdEncoding is not Strict: `YR==` decodes as `YQ==` does). `s` itself when it is
 * already that, as nearly every client sends it.
 */
export function goBase64(s: string): string {
  const n = s.length;
  let canonical = !/[\r\n]/.test(s);
  if (canonical && n >= 2 && s.charCodeAt(n - 1) === 61) {
    const twoPads = s.charCodeAt(n - 2) === 61;
    const last = s.charCodeAt(n - (twoPads ? 3 : 2));
    const value = last >= 65 && last <= 90 ? last - 65 : last >= 97 && last <= 122 ? last - 71 : last >= 48 && last <= 57 ? last + 4 : last === 43 ? 62 : 63;
    canonical = (value & (twoPads ? 0x0f : 0x03)) === 0;
  }
  return canonical ? s : Buffer.from(s, 'base64').toString('base64');
}
