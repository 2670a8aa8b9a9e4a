// Go's base64 strictness, apart from schema-types.ts so that decoding a kubeconfig (the node
// agent, the `plat` commands) does not load ajv.

/** Go's base64.StdEncoding strictness: returns the index of the first illegal byte, or -1. */
export function base64ErrorIndex(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (alpha) continue;
    if (c === 61) {
      // padding: only at the end, at most two, and total length a multiple of 4
      const pad = s.slice(i);
      if (/^={1,2}$/.test(pad) && n % 4 === 0) return -1;
      return i;
    }
    if (c === 13 || c === 10) continue; // Go's decoder skips newlines
    return i;
  }
  const clean = s.replace(/[\r\n]/g, '');
  return clean.length % 4 === 0 ? -1 : clean.length - (clean.length % 4);
}
