// Go's path.Clean (and filepath.Clean on Unix): the shortest path naming the same file, by purely
// lexical processing — repeated slashes, `.` and `..` elements removed, no trailing slash, `.` for
// an empty result; `..` does not climb above a rooted path's root.

export function goPathClean(s: string): string {
  if (s === '') return '.';
  const rooted = s.startsWith('/');
  const out: string[] = [];
  for (const part of s.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return rooted ? `/${joined}` : joined || '.';
}
